/**
 * Demo mode's sign-in: with no BOT_TOKEN the server signs init data itself, one demo customer per
 * browser (by the id it keeps), so demo visitors never see or block each other's orders.
 */
import { createHash } from 'node:crypto';
import { isDemoBrowserId, startLink, type DemoSessionResponse } from '../../../shared/api';
import { isDemoMode } from '../config/config';
import type { ServerContext } from '../context';
import { AppError } from '../errors';
import { DEMO_BOT_TOKEN, DEMO_USER, signInitData } from './telegram-auth';

/** Far above today's real ids, and never seen with a real token. */
const DEMO_ID_BASE = 8_000_000_000_000;
const DEMO_ID_SPAN = 2 ** 40;

/** Each is also an operator in demo mode, over their own orders. */
export function isDemoCustomerId(telegramId: number): boolean {
  return (
    telegramId === DEMO_USER.id ||
    (telegramId >= DEMO_ID_BASE && telegramId < DEMO_ID_BASE + DEMO_ID_SPAN)
  );
}

export function demoCustomer(browser: unknown) {
  if (!isDemoBrowserId(browser)) return DEMO_USER;
  const digest = createHash('sha256').update(`demo:${browser}`).digest();
  const suffix = digest.subarray(0, 2).toString('hex');
  return {
    id: DEMO_ID_BASE + digest.readUIntBE(0, 5),
    first_name: 'Demo',
    last_name: `Customer ${suffix.toUpperCase()}`,
    username: `demo_${suffix}`,
    language_code: 'ru',
  };
}

/** DEMO_DISABLED with a real bot token. */
export function demoSession(
  ctx: ServerContext,
  requested: unknown,
  browser: unknown,
): DemoSessionResponse {
  if (!isDemoMode(ctx.config)) throw new AppError('DEMO_DISABLED');
  // Only a well-formed deep link is passed on; anything else opens the app plainly.
  const startParam =
    typeof requested === 'string' && startLink(requested) !== undefined ? requested : undefined;
  return {
    initData: signInitData(DEMO_BOT_TOKEN, demoCustomer(browser), {
      ...(startParam === undefined ? {} : { startParam }),
      authDate: new Date(ctx.now()),
    }),
  };
}
