/**
 * Never lost, and repeated only when a call was in flight:
 * - the real server process is killed with SIGKILL after the status changes committed and before
 *   their messages could be sent (its Bot API unreachable), then restarted with the Bot API up:
 *   every message arrives, once (no call had left: the repeat a kill can cause, of a call in
 *   flight, is tested in notifications.test.ts);
 * - two server instances on one PostgreSQL database, both running the outbox worker, send each
 *   message once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app';
import { openDatabase, type OpenDatabase } from '../../../src/server/platform/db/database';
import { API_PATHS, type CreateOrderResponse } from '../../../src/shared/api';
import { OPERATOR_PATHS } from '../../../src/shared/operator-api';
import { FAKE_TOKEN, FakeBotApi, type BotApiCall } from '../../helpers/fake-bot-api';
import { authHeader, initDataFor } from '../../helpers/identity';
import {
  CARD_REQUISITES,
  EVM_WALLET,
  OPERATOR,
  TRON_WALLET,
  createLifecycleApp,
  createOrderViaHttp,
  createPayload,
  perform,
  type TestUser,
} from '../../helpers/lifecycle';
import { ServerProcess, freePort, serverDatabase } from '../../helpers/server-process';
import type { TestApp } from '../../helpers/test-app';
import { testDatabaseKind } from '../../helpers/test-database';

const OPERATOR_CHAT = -1_005_555_555_555;

/** The messages that reached chats, each counted by chat and text. */
function deliveries(calls: readonly BotApiCall[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const call of calls) {
    if (call.method !== 'sendMessage') continue;
    const key = `${String(call.payload['chat_id'])} ${String(call.payload['text'])}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

describe('the server killed between the status change and the send', () => {
  const ORDERS = 6;
  let api: FakeBotApi;
  let dir: string;
  let drop: () => Promise<void> = () => Promise.resolve();
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    api = await new FakeBotApi(FAKE_TOKEN).start();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'exchange-outbox-crash-'));
  });
  afterAll(async () => {
    await server?.kill();
    await api.stop();
    await drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('every message arrives after the restart, once', { timeout: 90_000 }, async () => {
    const database = await serverDatabase(dir);
    drop = database.drop;
    const port = await freePort();
    const env = (apiRoot: string) => ({
      ...database.env,
      RECEIPTS_DIR: path.join(dir, 'receipts'),
      BOT_TOKEN: FAKE_TOKEN,
      TELEGRAM_API_ROOT: apiRoot,
      OPERATOR_IDS: String(OPERATOR.id),
      OPERATOR_CHAT_ID: String(OPERATOR_CHAT),
      DEPOSIT_ADDRESS_TRC20: TRON_WALLET,
      DEPOSIT_ADDRESS_EVM: EVM_WALLET,
      LOG_LEVEL: 'warn',
    });
    // First life: Telegram cannot be reached, so nothing the changes wrote can be sent.
    server = await ServerProcess.start({ port, env: env(`http://127.0.0.1:${await freePort()}`) });
    const url = server.url;
    const call = async (user: TestUser, method: string, route: string, body?: object) => {
      const res = await fetch(`${url}${route}`, {
        method,
        headers: {
          ...authHeader(initDataFor(user, { token: FAKE_TOKEN })),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      expect(res.status, await res.clone().text()).toBeLessThan(300);
      return res;
    };
    const rate = async (customer: TestUser) => {
      const query = new URLSearchParams({
        amount: '15000',
        currency: 'RUB',
        operation: 'BUY',
        cryptoCurrency: 'USDT',
        paymentMethod: 'P2P',
      });
      const res = await call(customer, 'GET', `${API_PATHS.rate}?${query.toString()}`);
      return ((await res.json()) as { rate: number }).rate;
    };
    const ids: string[] = [];
    for (let i = 0; i < ORDERS; i++) {
      const customer: TestUser = { id: 510_000_000 + i, first_name: `Клиент ${i}` };
      const created = await call(
        customer,
        'POST',
        API_PATHS.createOrder,
        createPayload('p2pBuy', await rate(customer)),
      );
      const id = ((await created.json()) as CreateOrderResponse).orderId;
      ids.push(id);
      await call(OPERATOR, 'POST', OPERATOR_PATHS.requisites(id), CARD_REQUISITES);
      if (i % 2 === 0) {
        await call(OPERATOR, 'POST', OPERATOR_PATHS.reject(id), { reasonCode: 'limits_or_checks' });
      }
    }
    await server.kill();
    expect(api.callsOf('sendMessage')).toEqual([]);

    // Second life, on the same database, with the Bot API up.
    server = await ServerProcess.start({ port, env: env(api.url) });
    // Each customer: the requisites, and every other one the rejection. The operators' chat: the
    // first two new orders, then one summary of the other four (a flood).
    const toCustomers = ORDERS + ORDERS / 2;
    const expected = toCustomers + 3;
    await api.waitFor('sendMessage', expected, 60_000);
    // Long enough for a second send of anything to show.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const counts = deliveries(api.calls);
    expect(api.callsOf('sendMessage')).toHaveLength(expected);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    const customerKeys = [...counts.keys()].filter((key) => !key.startsWith(String(OPERATOR_CHAT)));
    for (const id of ids) {
      const about = customerKeys.filter((key) => key.includes(id.slice(0, 8)));
      expect(about.length, id).toBe(ids.indexOf(id) % 2 === 0 ? 2 : 1);
    }
    const toOperators = api
      .callsOf('sendMessage')
      .filter((call) => call.payload['chat_id'] === OPERATOR_CHAT)
      .map((call) => String(call.payload['text']));
    expect(toOperators).toEqual([
      expect.stringContaining(ids[0]?.slice(0, 8) ?? '?'),
      expect.stringContaining(ids[1]?.slice(0, 8) ?? '?'),
      expect.stringMatching(/^🆕 4 новых заказа\. /),
    ]);
  });
});

describe.runIf(testDatabaseKind() === 'postgres')(
  'two server instances on one PostgreSQL database',
  () => {
    const ORDERS = 40;
    let api: FakeBotApi;
    let first: TestApp;
    let second: TestApp;
    let secondDatabase: OpenDatabase;
    beforeAll(async () => {
      api = await new FakeBotApi(FAKE_TOKEN).start();
      const config = {
        botToken: FAKE_TOKEN,
        telegramApiRoot: api.url,
        // Customers' chats only: the operators' one chat takes one message a second.
        operatorChatId: undefined,
        maxActiveOrders: 100,
      };
      first = await createLifecycleApp(config, { realClock: true, jobs: true });
      secondDatabase = openDatabase(first.database.config);
      const app = await buildApp(first.config, { db: secondDatabase.db, jobs: true });
      second = { ...first, app, close: () => app.close() };
      await Promise.all([first.app.ready(), second.app.ready()]);
    });
    afterAll(async () => {
      await second.close();
      await secondDatabase.db.destroy();
      await first.close();
      await api.stop();
    });

    it('both send, and each message is sent once', { timeout: 60_000 }, async () => {
      const customers = Array.from({ length: ORDERS }, (_, i) => ({
        id: 520_000_000 + i,
        first_name: `Customer ${i}`,
        language_code: 'en',
      }));
      // Half the calls to each instance.
      const ids = await Promise.all(
        customers.map((customer, i) =>
          createOrderViaHttp(i % 2 === 0 ? first : second, customer, 'p2pBuy'),
        ),
      );
      // Each customer hears of the requisites, then of the rejection: two messages a chat.
      await Promise.all(
        ids.map(async (id, i) => {
          const customer = customers[i] as TestUser;
          await perform(
            i % 2 === 0 ? second : first,
            'giveRequisites',
            id,
            customer,
            CARD_REQUISITES,
          );
          await perform(i % 2 === 0 ? first : second, 'reject', id, customer, {
            reasonCode: 'limits_or_checks',
          });
        }),
      );
      await api.waitFor('sendMessage', ORDERS * 2, 50_000);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const counts = deliveries(api.calls);
      expect(api.callsOf('sendMessage')).toHaveLength(ORDERS * 2);
      expect(counts.size).toBe(ORDERS * 2);
      const rows = await first.database.db
        .selectFrom('notifications')
        .select(['recipient', 'status', 'attempts'])
        .where('recipient', '!=', 'operators')
        .execute();
      expect(rows).toHaveLength(ORDERS * 2);
      expect(rows.every((row) => row.status === 'sent' && row.attempts === 1)).toBe(true);
    });
  },
);
