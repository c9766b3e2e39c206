/**
 * Demo mode's sign-in (design.md, "Identity"): with no BOT_TOKEN the server signs init data for
 * its demo customer itself, so the app runs end to end in a plain browser.
 */
import { orderIdFromStartParam, type DemoSessionResponse } from '../../shared/api';
import { isDemoMode } from '../config';
import type { ServerContext } from '../context';
import { AppError } from '../errors';
import { DEMO_BOT_TOKEN, DEMO_USER, signInitData } from './telegram-auth';

/** Demo init data, opening the order of a deep link; DEMO_DISABLED with a real bot token. */
export function demoSession(ctx: ServerContext, requested: unknown): DemoSessionResponse {
  if (!isDemoMode(ctx.config)) throw new AppError('DEMO_DISABLED');
  // Only a well-formed order deep link is passed on; anything else opens the app plainly.
  const startParam =
    typeof requested === 'string' && orderIdFromStartParam(requested) !== undefined
      ? requested
      : undefined;
  return {
    initData: signInitData(DEMO_BOT_TOKEN, DEMO_USER, {
      ...(startParam === undefined ? {} : { startParam }),
      authDate: new Date(ctx.now()),
    }),
  };
}
