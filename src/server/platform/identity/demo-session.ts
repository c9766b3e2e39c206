/**
 * Demo mode's sign-in: with no BOT_TOKEN the server signs init data for
 * a demo customer itself, so the app runs end to end in a plain browser. Each browser is its own
 * demo customer, named by the random id it keeps in local storage, so visitors of one
 * demo never see or block each other's orders.
 */
import { createHash } from 'node:crypto';
import { isDemoBrowserId, startLink, type DemoSessionResponse } from '../../../shared/api';
import { isDemoMode } from '../config/config';
import type { ServerContext } from '../context';
import { AppError } from '../errors';
import { DEMO_BOT_TOKEN, DEMO_USER, signInitData } from './telegram-auth';

/** Demo customers' Telegram ids: far above today's real ids, and never seen with a real token. */
const DEMO_ID_BASE = 8_000_000_000_000;
const DEMO_ID_SPAN = 2 ** 40;

/** Whether an id is a demo customer's (each of whom is also an operator in demo mode). */
export function isDemoCustomerId(telegramId: number): boolean {
  return (
    telegramId === DEMO_USER.id ||
    (telegramId >= DEMO_ID_BASE && telegramId < DEMO_ID_BASE + DEMO_ID_SPAN)
  );
}

/** The demo customer of a browser's id (a UUID it made), or the shared one without one. */
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

/**
 * Demo init data for the browser's own customer, opening the order (or, for an operator, the
 * console's order) of a deep link; DEMO_DISABLED with a real bot token.
 */
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
