/**
 * The expiry sweeper: deadlines stored on the order cancel it with
 * reason 'expired' whether or not the app is open, and also after a restart; a customer who
 * already paid or sent crypto is never cancelled by the clock, the order is flagged for operators
 * once. The clock is moved, never slept on; one test runs the real job on the real clock.
 */
import fs from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../../src/server/app';
import { sql } from 'kysely';
import { BATCH_POLICY, JOB_BATCH } from '../../../src/server/platform/jobs/batches';
import { EXPIRY_RETRY_MS, sweepOnce } from '../../../src/server/orders/sweeper';
import { API_PATHS } from '../../../src/shared/api';
import {
  BANK_PAYMENT_WINDOW_MS,
  DEFAULT_REQUISITES_TIMEOUT_MS,
  OFFICE_RATE_FIXED_MS,
  OPERATOR_USUAL_ANSWER_MS,
  P2P_PAYMENT_WINDOW_MS,
} from '../../../src/shared/limits';
import {
  EXPIRABLE_STATUSES,
  ORDER_STATUSES,
  WAITING_FOR_OPERATOR,
  type OrderStatus,
} from '../../../src/shared/order-status';
import { ALICE } from '../../helpers/identity';
import {
  BANK_REQUISITES,
  CARD_REQUISITES,
  OFFICE_INSTRUCTIONS,
  OPERATOR,
  OPERATOR_PATHS,
  createLifecycleApp,
  createOrderViaHttp,
  eventsOf,
  expectMoved,
  expectRefused,
  headersFor,
  naturalKind,
  orderRow,
  pngFile,
  receiptBody,
  rowOf,
  send,
  statusOf,
  txHashFor,
  type OrderKind,
} from '../../helpers/lifecycle';
import { insertOrder } from '../../helpers/orders';
import type { TestApp } from '../../helpers/test-app';

const CUSTOMER = ALICE;
const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

let t: TestApp;
beforeAll(async () => {
  t = await createLifecycleApp();
});
afterAll(async () => {
  await t.close();
});

const sweep = () => sweepOnce(t.database, t.clock.now());

/** An order of `kind` waiting for its operator, written now. */
const waiting = (kind: OrderKind, status: OrderStatus) =>
  insertOrder(t.database.db, CUSTOMER, { ...rowOf(kind), status, created_at: t.clock.now() });

interface ExpiringCase {
  readonly name: string;
  readonly window: number;
  readonly from: OrderStatus;
  /** Brings an order to `from` through HTTP; its deadline is `window` from the end of this. */
  readonly setup: () => Promise<string>;
  /** A customer call that the cancelled order must refuse. */
  readonly lateCall: (id: string) => Promise<LightMyRequestResponse>;
}

const EXPIRING: readonly ExpiringCase[] = [
  {
    name: 'a P2P buy with card requisites is cancelled 30 min after them',
    window: P2P_PAYMENT_WINDOW_MS,
    from: 'REQUISITES_READY',
    setup: async () => {
      const id = await waiting('p2pBuy', 'WAITING_REQUISITES');
      expectMoved(
        await send(t, 'POST', OPERATOR_PATHS.requisites(id), OPERATOR, CARD_REQUISITES),
        'REQUISITES_READY',
      );
      return id;
    },
    lateCall: (id) => send(t, 'POST', API_PATHS.paymentConfirm(id), CUSTOMER, {}),
  },
  {
    name: 'a bank buy with bank requisites is cancelled 2 h after them',
    window: BANK_PAYMENT_WINDOW_MS,
    from: 'REQUISITES_READY',
    setup: async () => {
      const id = await waiting('bankBuy', 'WAITING_REQUISITES');
      expectMoved(
        await send(t, 'POST', OPERATOR_PATHS.requisites(id), OPERATOR, BANK_REQUISITES),
        'REQUISITES_READY',
      );
      return id;
    },
    lateCall: (id) =>
      send(
        t,
        'POST',
        API_PATHS.receipt(id),
        CUSTOMER,
        receiptBody(pngFile(), 'image/png', 'a.png'),
      ),
  },
  {
    name: 'an office reservation is cancelled 3 h after the instructions',
    window: OFFICE_RATE_FIXED_MS,
    from: 'OFFICE_READY',
    setup: async () => {
      const id = await waiting('officeBuy', 'OFFICE_PENDING');
      expectMoved(
        await send(t, 'POST', OPERATOR_PATHS.officeInstructions(id), OPERATOR, {
          instructions: OFFICE_INSTRUCTIONS,
        }),
        'OFFICE_READY',
      );
      return id;
    },
    lateCall: (id) => send(t, 'POST', API_PATHS.officeConfirm(id), CUSTOMER, {}),
  },
  {
    name: 'a sell waiting for crypto is cancelled 30 min after it was created',
    window: P2P_PAYMENT_WINDOW_MS,
    from: 'WAITING_CRYPTO',
    setup: () => createOrderViaHttp(t, CUSTOMER, 'sell'),
    lateCall: (id) =>
      send(t, 'POST', API_PATHS.txHash(id), CUSTOMER, { txHash: txHashFor('TRC20') }),
  },
];

describe('deadlines cancel an order with reason expired, not one second early', () => {
  it.each(EXPIRING)('$name', async ({ window, from, setup, lateCall }) => {
    const id = await setup();
    const start = t.clock.now();

    t.clock.advance(window - SECOND);
    expect((await sweep()).expired).not.toContain(id);
    expect((await orderRow(t.database.db, id)).status).toBe(from);

    t.clock.advance(SECOND);
    expect(t.clock.now()).toBe(start + window);
    expect((await sweep()).expired).toContain(id);
    const events = await eventsOf(t.database.db, id);
    expect(events.at(-1)).toMatchObject({
      from_status: from,
      to_status: 'CANCELLED',
      actor: 'system',
      actor_id: null,
      reason: 'expired',
      created_at: start + window,
    });
    expect((await statusOf(t, id, CUSTOMER)).status).toBe('CANCELLED');
    expectRefused(await lateCall(id), 'CANCELLED');

    t.clock.advance(HOUR);
    expect((await sweep()).expired).not.toContain(id);
    expect(await eventsOf(t.database.db, id)).toHaveLength(events.length);
  });
});

interface PaidCase {
  readonly status: OrderStatus;
  /** Brings an order whose deadline is `window` from now into `status`. */
  readonly setup: () => Promise<string>;
  readonly window: number;
}

const PAID: readonly PaidCase[] = [
  {
    status: 'PAYMENT_PENDING',
    window: P2P_PAYMENT_WINDOW_MS,
    setup: async () => {
      const id = await waiting('p2pBuy', 'WAITING_REQUISITES');
      await send(t, 'POST', OPERATOR_PATHS.requisites(id), OPERATOR, CARD_REQUISITES);
      expectMoved(
        await send(t, 'POST', API_PATHS.paymentConfirm(id), CUSTOMER, {}),
        'PAYMENT_PENDING',
      );
      return id;
    },
  },
  {
    status: 'RECEIPT_UPLOADED',
    window: BANK_PAYMENT_WINDOW_MS,
    setup: async () => {
      const id = await waiting('bankBuy', 'WAITING_REQUISITES');
      await send(t, 'POST', OPERATOR_PATHS.requisites(id), OPERATOR, BANK_REQUISITES);
      expectMoved(
        await send(
          t,
          'POST',
          API_PATHS.receipt(id),
          CUSTOMER,
          receiptBody(pngFile(), 'image/png', 'p.png'),
        ),
        'RECEIPT_UPLOADED',
      );
      return id;
    },
  },
  {
    status: 'TX_PENDING',
    window: P2P_PAYMENT_WINDOW_MS,
    setup: async () => {
      const id = await createOrderViaHttp(t, CUSTOMER, 'sell');
      expectMoved(
        await send(t, 'POST', API_PATHS.txHash(id), CUSTOMER, { txHash: txHashFor('TRC20') }),
        'TX_PENDING',
      );
      return id;
    },
  },
  {
    status: 'PAYMENT_STARTED',
    window: P2P_PAYMENT_WINDOW_MS,
    setup: () =>
      insertOrder(t.database.db, CUSTOMER, {
        ...rowOf('p2pBuy'),
        status: 'PAYMENT_STARTED',
        created_at: t.clock.now(),
        requisites_ready_at: t.clock.now(),
        expires_at: t.clock.now() + P2P_PAYMENT_WINDOW_MS,
      }),
  },
];

describe('an order whose customer already paid never expires: it is flagged for operators once', () => {
  it.each(PAID)(
    '$status past its deadline stays, gets needs_attention and is not flagged again',
    async ({ status, setup, window }) => {
      const id = await setup();
      const events = await eventsOf(t.database.db, id);
      const deadline = (await orderRow(t.database.db, id)).expires_at ?? 0;
      expect(deadline).toBe(t.clock.now() + window);

      t.clock.advance(window - SECOND);
      expect((await sweep()).flagged).not.toContain(id);
      expect((await orderRow(t.database.db, id)).needs_attention).toBe(0);

      t.clock.advance(SECOND);
      const result = await sweep();
      expect(result.flagged).toContain(id);
      expect(result.expired).not.toContain(id);
      const flagged = await orderRow(t.database.db, id);
      expect(flagged).toMatchObject({ status, needs_attention: 1, deadline_alerted_at: deadline });

      t.clock.advance(3 * HOUR);
      expect((await sweep()).flagged).not.toContain(id);
      expect(await orderRow(t.database.db, id)).toEqual(flagged);
      expect(await eventsOf(t.database.db, id)).toEqual(events);

      const list = await send(t, 'GET', `${OPERATOR_PATHS.orders}?status=attention`, OPERATOR);
      expect(list.json<{ orders: { id: string }[] }>().orders.map((o) => o.id)).toContain(id);
    },
  );
});

describe('no order waits for an operator forever (REQUISITES_TIMEOUT)', () => {
  it.each([
    ['a P2P buy waiting for requisites', 'p2pBuy', 'WAITING_REQUISITES'],
    ['a bank buy waiting for requisites', 'bankBuy', 'WAITING_REQUISITES'],
    ['an office buy waiting for instructions', 'officeBuy', 'OFFICE_PENDING'],
  ] as const)(
    '%s is flagged for operators after 10 minutes and cancelled (no operator answered) after an hour',
    async (_name, kind, status) => {
      const id = await createOrderViaHttp(t, CUSTOMER, kind);
      const created = t.clock.now();
      expect((await orderRow(t.database.db, id)).expires_at).toBe(
        created + DEFAULT_REQUISITES_TIMEOUT_MS,
      );

      t.clock.advance(OPERATOR_USUAL_ANSWER_MS - SECOND);
      expect((await sweep()).flagged).not.toContain(id);
      t.clock.advance(SECOND);
      expect((await sweep()).flagged).toContain(id);
      expect(await orderRow(t.database.db, id)).toMatchObject({ status, needs_attention: 1 });
      expect((await sweep()).flagged).not.toContain(id);

      t.clock.current = created + DEFAULT_REQUISITES_TIMEOUT_MS - SECOND;
      expect((await sweep()).expired).not.toContain(id);
      t.clock.advance(SECOND);
      expect((await sweep()).expired).toContain(id);
      expect(await statusOf(t, id, CUSTOMER)).toMatchObject({
        status: 'CANCELLED',
        cancelReason: 'no_operator',
      });
      expect((await eventsOf(t.database.db, id)).at(-1)).toMatchObject({
        from_status: status,
        to_status: 'CANCELLED',
        actor: 'system',
        reason: 'no_operator',
      });
    },
  );

  it('an operator who answers in time ends the wait: its deadline and its flag go', async () => {
    const id = await createOrderViaHttp(t, CUSTOMER, 'p2pBuy');
    t.clock.advance(OPERATOR_USUAL_ANSWER_MS);
    expect((await sweep()).flagged).toContain(id);
    expectMoved(
      await send(t, 'POST', OPERATOR_PATHS.requisites(id), OPERATOR, CARD_REQUISITES),
      'REQUISITES_READY',
    );
    const row = await orderRow(t.database.db, id);
    expect(row).toMatchObject({
      expires_at: t.clock.now() + P2P_PAYMENT_WINDOW_MS,
      deadline_alerted_at: null,
    });
    // Now the payment's deadline counts: the order is not cancelled for the old wait.
    t.clock.advance(P2P_PAYMENT_WINDOW_MS - SECOND);
    expect((await sweep()).expired).not.toContain(id);
  });

  it('the timeout is REQUISITES_TIMEOUT seconds when configured', async () => {
    const short = await createLifecycleApp({ requisitesTimeoutMs: 15 * MINUTE });
    try {
      const id = await createOrderViaHttp(short, CUSTOMER, 'officeBuy');
      expect((await orderRow(short.database.db, id)).expires_at).toBe(
        short.clock.now() + 15 * MINUTE,
      );
    } finally {
      await short.close();
    }
  });
});

describe('the expire row of the table: only REQUISITES_READY, OFFICE_READY and WAITING_CRYPTO', () => {
  it.each(ORDER_STATUSES)(
    'an order in %s whose deadlines all passed is cancelled only when its status expires',
    async (status) => {
      const past = t.clock.now() - SECOND;
      const id = await insertOrder(t.database.db, CUSTOMER, {
        ...rowOf(naturalKind(status)),
        status,
        created_at: past - HOUR,
        requisites_ready_at: past - HOUR,
        expires_at: past,
        reserved_until: past,
      });
      const result = await sweep();
      const row = await orderRow(t.database.db, id);
      if (EXPIRABLE_STATUSES.includes(status)) {
        expect(result.expired).toContain(id);
        expect(row.status).toBe('CANCELLED');
        expect(await eventsOf(t.database.db, id)).toMatchObject([
          {
            from_status: status,
            to_status: 'CANCELLED',
            actor: 'system',
            reason: WAITING_FOR_OPERATOR.includes(status) ? 'no_operator' : 'expired',
          },
        ]);
      } else {
        expect(result.expired).not.toContain(id);
        expect(row.status).toBe(status);
        expect(await eventsOf(t.database.db, id)).toEqual([]);
      }
    },
  );

  it('an office reservation runs on reservedUntil, a payment on expiresAt', async () => {
    const now = t.clock.now();
    const office = await insertOrder(t.database.db, CUSTOMER, {
      ...rowOf('officeBuy'),
      status: 'OFFICE_READY',
      created_at: now,
      expires_at: now - SECOND,
      reserved_until: now + HOUR,
    });
    const payment = await insertOrder(t.database.db, CUSTOMER, {
      ...rowOf('p2pBuy'),
      status: 'REQUISITES_READY',
      created_at: now,
      expires_at: now + MINUTE,
      reserved_until: now - SECOND,
    });
    const noDeadline = await insertOrder(t.database.db, CUSTOMER, {
      ...rowOf('p2pBuy'),
      status: 'REQUISITES_READY',
      created_at: now,
    });
    const result = await sweep();
    for (const id of [office, payment, noDeadline]) {
      expect(result.expired).not.toContain(id);
      expect((await orderRow(t.database.db, id)).status).not.toBe('CANCELLED');
    }
  });
});

describe('also after a restart', () => {
  it('an order whose deadline passed while no server ran is expired by the first sweep of a new server', async () => {
    const first = await createLifecycleApp();
    const db = first.database.db;
    try {
      const id = await insertOrder(db, CUSTOMER, {
        ...rowOf('p2pBuy'),
        status: 'WAITING_REQUISITES',
        created_at: first.clock.now(),
      });
      expectMoved(
        await send(first, 'POST', OPERATOR_PATHS.requisites(id), OPERATOR, CARD_REQUISITES),
        'REQUISITES_READY',
      );
      const deadline = first.clock.now() + P2P_PAYMENT_WINDOW_MS;
      await first.app.close();

      // Down for two hours; then a new server starts on the same database.
      first.clock.advance(2 * HOUR);
      expect((await orderRow(db, id)).status).toBe('REQUISITES_READY');
      const second = await buildApp(first.config, {
        db,
        now: first.clock.now,
        jobs: true,
      });
      try {
        await second.ready();
        // The sweeper's first pass runs at start-up, not after its first 2 s interval.
        await vi.waitFor(
          async () => {
            expect((await orderRow(db, id)).status).toBe('CANCELLED');
          },
          { timeout: 1_500, interval: 10 },
        );
        expect((await eventsOf(db, id)).at(-1)).toMatchObject({
          from_status: 'REQUISITES_READY',
          to_status: 'CANCELLED',
          actor: 'system',
          reason: 'expired',
          created_at: first.clock.now(),
        });
        expect(first.clock.now()).toBeGreaterThan(deadline);
        const status = await second.inject({
          method: 'GET',
          url: API_PATHS.orderStatus(id),
          headers: headersFor(CUSTOMER),
        });
        expect(status.json<{ status: string }>().status).toBe('CANCELLED');
      } finally {
        await second.close();
      }
    } finally {
      await first.database.destroy();
      fs.rmSync(first.config.receiptsDir, { recursive: true, force: true });
    }
  });
});

describe('no operator answered, across a restart', () => {
  it('an order created before a two-hour outage is cancelled (no_operator) by the first sweep after it', async () => {
    const first = await createLifecycleApp();
    const db = first.database.db;
    try {
      const id = await createOrderViaHttp(first, CUSTOMER, 'officeBuy');
      await first.app.close();
      first.clock.advance(2 * HOUR);
      const second = await buildApp(first.config, { db, now: first.clock.now, jobs: true });
      try {
        await second.ready();
        await vi.waitFor(
          async () => {
            expect(await orderRow(db, id)).toMatchObject({
              status: 'CANCELLED',
              cancel_reason: 'no_operator',
            });
          },
          { timeout: 1_500, interval: 10 },
        );
      } finally {
        await second.close();
      }
    } finally {
      await first.database.destroy();
      fs.rmSync(first.config.receiptsDir, { recursive: true, force: true });
    }
  });
});

describe('the sweeper job of a running server (real clock)', () => {
  it('buildApp with jobs expires an order past its deadline within seconds, by itself', async () => {
    const real = await createLifecycleApp({}, { realClock: true, jobs: true });
    try {
      const now = Date.now();
      const due = await insertOrder(real.database.db, CUSTOMER, {
        ...rowOf('p2pBuy'),
        status: 'REQUISITES_READY',
        created_at: now - HOUR,
        requisites_ready_at: now - HOUR,
        expires_at: now - SECOND,
      });
      const paid = await insertOrder(real.database.db, CUSTOMER, {
        ...rowOf('p2pBuy'),
        status: 'PAYMENT_PENDING',
        created_at: now - HOUR,
        expires_at: now - SECOND,
      });
      const notYet = await insertOrder(real.database.db, CUSTOMER, {
        ...rowOf('p2pBuy'),
        status: 'REQUISITES_READY',
        created_at: now,
        expires_at: now + HOUR,
      });
      await real.app.ready();

      await vi.waitFor(
        async () => {
          expect((await orderRow(real.database.db, due)).status).toBe('CANCELLED');
          expect((await orderRow(real.database.db, paid)).needs_attention).toBe(1);
        },
        { timeout: 5_000, interval: 50 },
      );
      expect((await eventsOf(real.database.db, due)).at(-1)?.reason).toBe('expired');
      expect((await orderRow(real.database.db, paid)).status).toBe('PAYMENT_PENDING');
      expect((await orderRow(real.database.db, notYet)).status).toBe('REQUISITES_READY');
    } finally {
      await real.close();
    }
  });
});

/**
 * Makes the database itself refuse to cancel one order (a trigger, as a broken row or a
 * constraint would), so its transition throws from inside the sweeper's transaction.
 */
async function refuseCancelOf(id: string): Promise<() => Promise<void>> {
  const { db, dialect } = t.database;
  if (dialect === 'sqlite') {
    await sql`create trigger refuse_cancel before update of status on orders
      when old.id = ${sql.lit(id)} and new.status = 'CANCELLED'
      begin select raise(abort, 'the test refuses this cancel'); end`.execute(db);
    return async () => {
      await sql`drop trigger refuse_cancel`.execute(db);
    };
  }
  await sql`create function refuse_cancel() returns trigger language plpgsql as $$
    begin raise exception 'the test refuses this cancel'; end $$`.execute(db);
  await sql`create trigger refuse_cancel before update on orders for each row
    when (old.id = ${sql.lit(id)} and new.status = 'CANCELLED')
    execute function refuse_cancel()`.execute(db);
  return async () => {
    await sql`drop trigger refuse_cancel on orders`.execute(db);
    await sql`drop function refuse_cancel()`.execute(db);
  };
}

describe('one bad order stops no expiry', () => {
  it('an order whose cancel throws is undone alone, flagged for operators and skipped; the others in its batch expire', async () => {
    const now = t.clock.now();
    const due = () =>
      insertOrder(t.database.db, CUSTOMER, {
        ...rowOf('p2pBuy'),
        status: 'REQUISITES_READY',
        created_at: now - HOUR,
        requisites_ready_at: now - HOUR,
        expires_at: now - SECOND,
      });
    const before = [await due(), await due()];
    const bad = await due();
    const after = [await due(), await due()];
    const restore = await refuseCancelOf(bad);
    try {
      const failing = new Map<string, number>();
      const first = await sweepOnce(t.database, t.clock.now(), { failing });
      expect(first.failed).toEqual([bad]);
      expect([...first.expired].sort()).toEqual([...before, ...after].sort());
      for (const id of [...before, ...after]) {
        expect((await orderRow(t.database.db, id)).status).toBe('CANCELLED');
      }
      expect(await orderRow(t.database.db, bad)).toMatchObject({
        status: 'REQUISITES_READY',
        needs_attention: 1,
      });
      // Not tried first again on the next pass: skipped while the fault may last.
      const second = await sweepOnce(t.database, t.clock.now(), { failing });
      expect(second.failed).toEqual([]);
      expect(second.expired).toEqual([]);
    } finally {
      await restore();
    }
    // Tried again later, once the fault has had time to pass.
    t.clock.advance(EXPIRY_RETRY_MS);
    const later = await sweepOnce(t.database, t.clock.now(), { failing: new Map([[bad, now]]) });
    expect(later.expired).toContain(bad);
  });
});

describe('a batch is cancelled in steps, each order as its own transition would be', () => {
  it('waiting ones no_operator, unpaid ones expired, an appealed one kept; an event and a message in its language each', async () => {
    const now = t.clock.now();
    const past = { created_at: now - 2 * HOUR, expires_at: now - SECOND };
    const ru = { id: 200_000_077, first_name: 'Вера' };
    const waitingIds = [
      await insertOrder(t.database.db, CUSTOMER, {
        ...rowOf('p2pBuy'),
        ...past,
        status: 'WAITING_REQUISITES',
      }),
      await insertOrder(t.database.db, ru, {
        ...rowOf('p2pBuy'),
        ...past,
        status: 'WAITING_REQUISITES',
      }),
    ];
    const unpaidIds = [
      await insertOrder(t.database.db, ru, {
        ...rowOf('p2pBuy'),
        ...past,
        status: 'REQUISITES_READY',
      }),
      await insertOrder(t.database.db, CUSTOMER, {
        ...rowOf('sell'),
        ...past,
        status: 'WAITING_CRYPTO',
      }),
    ];
    const appealed = await insertOrder(t.database.db, CUSTOMER, {
      ...rowOf('p2pBuy'),
      ...past,
      status: 'REQUISITES_READY',
    });
    for (const [telegramId, language] of [
      [CUSTOMER.id, 'en'],
      [ru.id, 'ru'],
    ] as const) {
      await t.database.db
        .updateTable('users')
        .set({ language })
        .where('telegram_id', '=', telegramId)
        .execute();
    }
    await t.database.db
      .insertInto('appeals')
      .values({
        order_id: appealed,
        user_id: CUSTOMER.id,
        reason: 'payment_not_confirmed',
        text: '',
        evidence: '[]',
        opened_at: now - HOUR,
        decided_at: null,
        decided_by: null,
        decision: null,
        outcome: null,
      })
      .execute();

    const result = await sweep();
    expect([...result.expired].sort()).toEqual([...waitingIds, ...unpaidIds].sort());
    const expected: [id: string, from: OrderStatus, reason: string, language: string][] = [
      [waitingIds[0] ?? '', 'WAITING_REQUISITES', 'no_operator', 'en'],
      [waitingIds[1] ?? '', 'WAITING_REQUISITES', 'no_operator', 'ru'],
      [unpaidIds[0] ?? '', 'REQUISITES_READY', 'expired', 'ru'],
      [unpaidIds[1] ?? '', 'WAITING_CRYPTO', 'expired', 'en'],
    ];
    for (const [id, from, reason, language] of expected) {
      expect(await orderRow(t.database.db, id)).toMatchObject({
        status: 'CANCELLED',
        cancel_reason: reason,
        updated_at: now,
      });
      const events = await eventsOf(t.database.db, id);
      expect(events.map((e) => [e.from_status, e.to_status, e.actor, e.reason])).toEqual([
        [from, 'CANCELLED', 'system', reason],
      ]);
      const messages = await t.database.db
        .selectFrom('notifications')
        .select(['kind', 'language', 'recipient', 'payload'])
        .where('order_id', '=', id)
        .execute();
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatchObject({ kind: 'cancelled', language });
      expect(JSON.parse(messages[0]?.payload ?? '{}')).toMatchObject({
        orderId: id,
        cancelReason: reason,
      });
    }
    expect(await orderRow(t.database.db, appealed)).toMatchObject({ status: 'REQUISITES_READY' });
    expect(await eventsOf(t.database.db, appealed)).toEqual([]);
  });
});

describe('a backlog is swept in bounded batches', () => {
  const overdue = (count: number) =>
    Promise.all(
      Array.from({ length: count }, () =>
        insertOrder(t.database.db, CUSTOMER, {
          ...rowOf('p2pBuy'),
          status: 'REQUISITES_READY',
          created_at: t.clock.now() - HOUR,
          requisites_ready_at: t.clock.now() - HOUR,
          expires_at: t.clock.now() - SECOND,
        }),
      ),
    );

  it('the event loop runs between two batches: a request waits for one batch, not the whole backlog', async () => {
    await overdue(3 * JOB_BATCH);
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const result = await sweepOnce(t.database, t.clock.now());
    ticking = false;
    expect(result.expired.length).toBeGreaterThanOrEqual(3 * JOB_BATCH);
    // At least one turn of the event loop after each batch of expiries.
    expect(turns).toBeGreaterThanOrEqual(3);
  });

  it('a sweep asked to stop finishes the batch in hand and claims no other', async () => {
    // One batch in hand per lane (PostgreSQL runs a few side by side), and more left over.
    const lanes = BATCH_POLICY[t.database.dialect].lanes;
    const total = (lanes + 1) * JOB_BATCH + 10;
    await overdue(total);
    const stop = new AbortController();
    const sweeping = sweepOnce(t.database, t.clock.now(), { signal: stop.signal });
    stop.abort();
    const result = await sweeping;
    // A batch a lane: at most JOB_BATCH orders each, fewer if its time ran out first.
    expect(result.expired.length).toBeGreaterThan(0);
    expect(result.expired.length).toBeLessThanOrEqual(lanes * JOB_BATCH);
    expect(result.flagged).toEqual([]);
    expect(result.reminded).toEqual([]);
    // The rest is there for the next pass.
    expect((await sweepOnce(t.database, t.clock.now())).expired).toHaveLength(
      total - result.expired.length,
    );
  });
});
