/** Telegram identities for tests, signed exactly as Telegram signs them. */
import {
  DEMO_BOT_TOKEN,
  DEMO_USER,
  signInitData,
} from '../../src/server/platform/identity/telegram-auth';

export const ALICE = {
  id: 200_000_001,
  first_name: 'Алиса',
  username: 'alice',
  language_code: 'ru',
};
export const BOB = { id: 200_000_002, first_name: 'Bob', username: 'bob', language_code: 'en' };
export { DEMO_BOT_TOKEN, DEMO_USER };

export function initDataFor(
  user: { id: number; first_name: string; username?: string; language_code?: string },
  options: { token?: string; authDate?: Date; startParam?: string } = {},
): string {
  return signInitData(options.token ?? DEMO_BOT_TOKEN, user, {
    ...(options.authDate === undefined ? {} : { authDate: options.authDate }),
    ...(options.startParam === undefined ? {} : { startParam: options.startParam }),
  });
}

export function authHeader(initData: string): { authorization: string } {
  return { authorization: `tma ${initData}` };
}
