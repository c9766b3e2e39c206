import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../../../src/shared/api';
import { signData } from '@telegram-apps/init-data-node';
import { ALICE, DEMO_BOT_TOKEN, authHeader, initDataFor } from '../../helpers/identity';
import { createTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { realClock: true });
});
afterAll(async () => {
  await t.close();
});

/** Init data as clients before Bot API 8.0 sign it: every field but `signature`, then `hash`. */
function signedWithoutSignature(user: object, token: string, authDate: number): string {
  const fields = new URLSearchParams({
    user: JSON.stringify(user),
    chat_instance: '-1000000000000000001',
    chat_type: 'sender',
    auth_date: String(authDate),
  });
  const checkString = [...fields.entries()]
    .map(([key, value]) => `${key}=${value}`)
    .sort()
    .join('\n');
  fields.append('hash', signData(checkString, token));
  return fields.toString();
}

const active = (headers: Record<string, string> = {}, query = '') =>
  t.app.inject({ method: 'GET', url: `${API_PATHS.activeOrders}${query}`, headers });

describe('Telegram identity', () => {
  it('accepts init data in the Authorization: tma header', async () => {
    const res = await active(authHeader(initDataFor(ALICE)));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ orders: [] });
  });

  it('accepts a telegramInitData query field', async () => {
    const raw = initDataFor(ALICE);
    const res = await active({}, `?telegramInitData=${encodeURIComponent(raw)}`);
    expect(res.statusCode).toBe(200);
  });

  it('reads a telegramInitData body field, and refuses one that is not a string', async () => {
    const { extractInitData } = await import('../../../src/server/platform/identity/telegram-auth');
    const request = (body: unknown) => ({ headers: {}, body, query: {} }) as never;
    expect(extractInitData(request({ telegramInitData: 'raw-data' }))).toBe('raw-data');
    expect(extractInitData(request({}))).toBeUndefined();
    expect(() => extractInitData(request({ telegramInitData: 42 }))).toThrow(
      expect.objectContaining({ code: 'AUTH_INVALID' }),
    );
  });

  it('refuses a call without init data with 401 AUTH_MISSING', async () => {
    const res = await active();
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'AUTH_MISSING' });
  });

  it('refuses init data whose fields were changed after signing with 401 AUTH_INVALID', async () => {
    const forged = initDataFor(ALICE).replace(
      encodeURIComponent('"id":200000001'),
      encodeURIComponent('"id":200000002'),
    );
    expect(forged).not.toBe(initDataFor(ALICE));
    const res = await active(authHeader(forged));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'AUTH_INVALID' });
  });

  it('refuses init data signed with another bot token with 401 AUTH_INVALID', async () => {
    const raw = initDataFor(ALICE, { token: '123456:another-bot-token-entirely-0000000000' });
    const res = await active(authHeader(raw));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'AUTH_INVALID' });
  });

  it('refuses init data older than INIT_DATA_MAX_AGE with 401 AUTH_EXPIRED', async () => {
    const dayAndMinuteAgo = new Date(Date.now() - (86_400 + 60) * 1000);
    const res = await active(authHeader(initDataFor(ALICE, { authDate: dayAndMinuteAgo })));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'AUTH_EXPIRED' });
  });

  it('accepts init data from clients older than Bot API 8.0, which send no signature field', async () => {
    const raw = signedWithoutSignature(ALICE, DEMO_BOT_TOKEN, Math.floor(Date.now() / 1000));
    expect(new URLSearchParams(raw).has('signature')).toBe(false);
    const res = await active(authHeader(raw));
    expect(res.statusCode).toBe(200);
    // The same data with one field changed is still refused: the hash covers every field.
    const forged = raw.replace('first_name%22%3A%22', 'first_name%22%3A%22X');
    expect((await active(authHeader(forged))).json()).toMatchObject({ code: 'AUTH_INVALID' });
  });

  it('refuses init data dated more than a minute ahead of the server with 401 AUTH_INVALID', async () => {
    const ahead = (seconds: number) =>
      active(authHeader(initDataFor(ALICE, { authDate: new Date(Date.now() + seconds * 1000) })));
    expect((await ahead(30)).statusCode).toBe(200);
    const res = await ahead(5 * 60);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'AUTH_INVALID' });
  });

  it('keeps a Telegram name with control characters, without them, instead of refusing its owner', async () => {
    const named = { id: 200_000_099, first_name: 'Ni\u0000na\u0007', username: 'nina' };
    const res = await active(authHeader(initDataFor(named)));
    expect(res.statusCode).toBe(200);
    await t.app.recordSeenCustomers();
    const row = await t.database.db
      .selectFrom('users')
      .select('first_name')
      .where('telegram_id', '=', named.id)
      .executeTakeFirstOrThrow();
    expect(row.first_name).toBe('Nina');
  });

  it('refuses an Authorization header of another scheme with 401 AUTH_INVALID', async () => {
    const res = await active({ authorization: 'Bearer abc' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'AUTH_INVALID' });
  });

  it('answers in the language of Accept-Language', async () => {
    const en = await active({ 'accept-language': 'en-US,en;q=0.9' });
    const ru = await active({ 'accept-language': 'ru' });
    expect(en.json()).toMatchObject({
      error: 'Telegram data is missing. Open the app in Telegram.',
    });
    expect(ru.json()).toMatchObject({
      error: 'Не переданы данные Telegram. Откройте приложение в Telegram.',
    });
  });

  it('records the customer on first sight and keeps their last visit current, off the request', async () => {
    const user = { id: 200_000_077, first_name: 'Вера', username: 'vera' };
    await active(authHeader(initDataFor(user)));
    await t.app.recordSeenCustomers();
    const first = await t.database.db
      .selectFrom('users')
      .selectAll()
      .where('telegram_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(first).toMatchObject({ first_name: 'Вера', username: 'vera' });

    await new Promise((resolve) => setTimeout(resolve, 5));
    await active(authHeader(initDataFor({ ...user, first_name: 'Вера Н.' })));
    await t.app.recordSeenCustomers();
    const second = await t.database.db
      .selectFrom('users')
      .selectAll()
      .where('telegram_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(second.first_name).toBe('Вера Н.');
    expect(second.first_seen_at).toBe(first.first_seen_at);
    expect(second.last_seen_at).toBeGreaterThan(first.last_seen_at);
  });
});

describe('operators (OPERATOR_IDS)', () => {
  it('lets only listed Telegram users act as operators: anyone else is refused with 403 FORBIDDEN', async () => {
    const op = await createTestApp({ operatorIds: [ALICE.id] }, { realClock: true });
    try {
      const list = (user: Parameters<typeof initDataFor>[0]) =>
        op.app.inject({
          method: 'GET',
          url: '/api/operator/orders',
          headers: authHeader(initDataFor(user)),
        });
      expect((await list(ALICE)).statusCode).toBe(200);
      const eve = await list({ id: 5, first_name: 'Eve' });
      expect(eve.statusCode).toBe(403);
      expect(eve.json()).toMatchObject({ code: 'FORBIDDEN' });
    } finally {
      await op.close();
    }
  });
});
