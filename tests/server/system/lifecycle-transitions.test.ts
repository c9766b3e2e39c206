/**
 * Every row of the transition table (src/shared/order-status.ts) that an HTTP call makes, allowed
 * from each status it names and refused from every other one. The cases
 * are generated from the table itself, so a row added there is tested here or the guard fails.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewOrderRow, OrderRow } from '../../../src/server/platform/db/schema';
import type { ApiErrorBody } from '../../../src/shared/api';
import {
  BANK_PAYMENT_WINDOW_MS,
  OFFICE_RATE_FIXED_MS,
  P2P_PAYMENT_WINDOW_MS,
} from '../../../src/shared/limits';
import {
  ALREADY_DONE,
  FINAL_STATUSES,
  ORDER_STATUSES,
  findTransition,
  TAKEN_WITHOUT_CHANGE,
  TRANSITIONS,
  type OrderStatus,
} from '../../../src/shared/order-status';
import { ALICE, BOB } from '../../helpers/identity';
import {
  BANK_REQUISITES,
  CARD_REQUISITES,
  HTTP_ACTIONS,
  OPERATOR,
  OFFICE_INSTRUCTIONS,
  ORDER_KINDS,
  STORED_BANK_REQUISITES,
  STORED_CARD_REQUISITES,
  createLifecycleApp,
  eventsOf,
  expectMoved,
  expectRefused,
  naturalKind,
  orderRow,
  pdfFile,
  perform,
  pngFile,
  receiptBody,
  rowOf,
  txHashFor,
  type HttpAction,
  type OrderKind,
} from '../../helpers/lifecycle';
import { insertOrder } from '../../helpers/orders';
import type { TestApp } from '../../helpers/test-app';
import { VERIFICATION_CODE_PATTERN } from '../../../src/shared/verification-code';

let t: TestApp;
beforeAll(async () => {
  t = await createLifecycleApp();
});
afterAll(async () => {
  await t.close();
});

const CUSTOMER = ALICE;

interface ActionSpec {
  /** The kinds of order the action is made on from `from`; the first is used for refusals. */
  readonly kinds: (from: OrderStatus) => readonly OrderKind[];
  /** A fresh body for the call on an order of `kind`. */
  readonly body: (kind: OrderKind) => Record<string, unknown>;
  /** The reason its order_events row carries. */
  readonly reason: string | null;
  /**
   * For an action that carries data: what an order already past it holds when it was this very
   * request that moved it (the same hash), so that sending it again is 'already done'.
   */
  readonly holds?: (sent: Record<string, unknown>) => Partial<NewOrderRow>;
  /** What an allowed change leaves on the order besides its status. */
  readonly effect?: (
    row: OrderRow,
    sent: Record<string, unknown>,
    kind: OrderKind,
    now: number,
  ) => Promise<void> | void;
}

const REJECT_REASON = 'Оплата не поступила на карту за 30 минут';

const SPECS: Readonly<Record<HttpAction, ActionSpec>> = {
  cancel: {
    kinds: (from) => [naturalKind(from)],
    body: () => ({}),
    reason: 'customer',
  },
  confirmPayment: { kinds: () => ['p2pBuy', 'bankBuy'], body: () => ({}), reason: null },
  uploadReceipt: {
    kinds: () => ['p2pBuy', 'bankBuy'],
    body: (kind) =>
      kind === 'p2pBuy'
        ? receiptBody(pngFile(), 'image/png', 'чек.png')
        : receiptBody(pdfFile(), 'application/pdf', 'платёжка.pdf'),
    reason: null,
    effect: async (row, sent) => {
      const bytes = Buffer.from(String(sent['fileData']).split(',')[1] ?? '', 'base64');
      const receipts = await t.database.db
        .selectFrom('receipts')
        .select(['sha256', 'size_bytes', 'file_name'])
        .where('order_id', '=', row.id)
        .execute();
      expect(receipts).toEqual([
        {
          sha256: createHash('sha256').update(bytes).digest('hex'),
          size_bytes: bytes.length,
          file_name: sent['fileName'],
        },
      ]);
    },
  },
  submitTxHash: {
    kinds: () => ['sell'],
    body: () => ({ txHash: txHashFor('TRC20'), network: 'TRC20' }),
    reason: null,
    holds: (sent) => ({ tx_hash: String(sent['txHash']) }),
    effect: (row, sent) => {
      expect(row.tx_hash).toBe(sent['txHash']);
    },
  },
  confirmOfficeReceipt: {
    kinds: () => ['officeBuy'],
    body: () => ({}),
    reason: 'customer received the crypto',
  },
  giveRequisites: {
    kinds: () => ['p2pBuy', 'bankBuy'],
    body: (kind) => (kind === 'p2pBuy' ? { ...CARD_REQUISITES } : { ...BANK_REQUISITES }),
    reason: null,
    effect: (row, _sent, kind, now) => {
      expect(JSON.parse(row.requisites ?? 'null')).toEqual(
        kind === 'p2pBuy' ? STORED_CARD_REQUISITES : STORED_BANK_REQUISITES,
      );
      expect(row.requisites_ready_at).toBe(now);
      expect(row.expires_at).toBe(
        now + (kind === 'p2pBuy' ? P2P_PAYMENT_WINDOW_MS : BANK_PAYMENT_WINDOW_MS),
      );
    },
  },
  giveOfficeInstructions: {
    kinds: () => ['officeBuy'],
    body: () => ({ instructions: OFFICE_INSTRUCTIONS }),
    reason: null,
    effect: (row, _sent, _kind, now) => {
      expect(row.office_instructions).toBe(OFFICE_INSTRUCTIONS);
      expect(row.office_id).toBe('moscow-city-tower');
      expect(row.reserved_until).toBe(now + OFFICE_RATE_FIXED_MS);
      const reservation = JSON.parse(row.reservation ?? '{}') as { reservationCode?: string };
      expect(reservation.reservationCode).toMatch(VERIFICATION_CODE_PATTERN);
    },
  },
  operatorConfirmPayment: { kinds: () => ['p2pBuy', 'bankBuy'], body: () => ({}), reason: null },
  confirmIncomingTx: { kinds: () => ['sell'], body: () => ({}), reason: null },
  complete: {
    kinds: (from) => (from === 'PAYMENT_CONFIRMED' ? ['p2pBuy', 'bankBuy'] : [naturalKind(from)]),
    body: (kind) =>
      kind === 'p2pBuy' || kind === 'bankBuy'
        ? { outgoingTxHash: txHashFor(ORDER_KINDS[kind].network) }
        : {},
    reason: null,
    effect: (row, sent) => {
      expect(row.outgoing_tx_hash).toBe(sent['outgoingTxHash'] ?? null);
    },
  },
  reject: {
    kinds: (from) => [naturalKind(from)],
    body: () => ({ reason: REJECT_REASON }),
    reason: REJECT_REASON,
    effect: (row) => {
      expect(row.reject_reason).toBe(REJECT_REASON);
    },
  },
};

const HTTP_ROWS = TRANSITIONS.filter(
  (row) => row.actor !== 'system' && row.actor !== 'chain' && row.action !== 'attachDeposit',
).map((row) => ({
  ...row,
  action: row.action as HttpAction,
}));

/** An order of `kind` in `from`, written a minute before the call. */
async function orderIn(
  kind: OrderKind,
  from: OrderStatus,
  holding: Partial<NewOrderRow> = {},
): Promise<OrderRow> {
  const id = await insertOrder(t.database.db, CUSTOMER, {
    ...rowOf(kind),
    ...holding,
    status: from,
    created_at: t.clock.now(),
    updated_at: t.clock.now(),
  });
  t.clock.advance(60_000);
  return orderRow(t.database.db, id);
}

describe('the transition table and the HTTP calls', () => {
  it('every customer and operator row of the table is made by an HTTP call tested here', () => {
    for (const row of HTTP_ROWS) {
      expect(HTTP_ACTIONS[row.action], row.action).toBeDefined();
      expect(HTTP_ACTIONS[row.action].actor, row.action).toBe(row.actor);
    }
    // The system's rows: 'expire' is the sweeper's (sweeper.test.ts); the chain's rows are the
    // chain checker's (chain-deposit-checker.test.ts): a deposit found without its hash is
    // attached, a deposit final is confirmed. An operator's attachment reads the chain too
    // (chain-deposit-attach.test.ts).
    expect(TRANSITIONS.filter((row) => row.actor === 'system').map((row) => row.action)).toEqual([
      'confirmIncomingTx',
      'expire',
    ]);
    expect(TRANSITIONS.filter((row) => row.actor === 'chain')).toEqual([
      { action: 'attachDeposit', actor: 'chain', from: ['WAITING_CRYPTO'], to: 'TX_PENDING' },
      { action: 'confirmIncomingTx', actor: 'chain', from: ['TX_PENDING'], to: 'TX_CONFIRMED' },
    ]);
  });

  // The cases below follow the table; these hold the table to the rules of an order's life.
  it('a customer cancels only before money moved', () => {
    expect(new Set(findTransition('cancel', 'customer')?.from)).toEqual(
      new Set([
        'WAITING_REQUISITES',
        'REQUISITES_READY',
        'OFFICE_PENDING',
        'OFFICE_READY',
        'WAITING_CRYPTO',
      ]),
    );
  });

  it('an operator rejects from any non-final status, and nothing leaves a final one', () => {
    expect(new Set(findTransition('reject', 'operator')?.from)).toEqual(
      new Set(ORDER_STATUSES.filter((s) => !FINAL_STATUSES.includes(s))),
    );
    for (const row of TRANSITIONS) {
      expect(
        row.from.filter((s) => FINAL_STATUSES.includes(s)),
        row.action,
      ).toEqual([]);
    }
  });

  it('orders waiting for an operator, the payment or the crypto expire; paid orders never do', () => {
    expect(new Set(findTransition('expire', 'system')?.from)).toEqual(
      new Set([
        'WAITING_REQUISITES',
        'OFFICE_PENDING',
        'REQUISITES_READY',
        'OFFICE_READY',
        'WAITING_CRYPTO',
      ]),
    );
  });
});

const allowed = HTTP_ROWS.flatMap((row) =>
  row.from.flatMap((from) => SPECS[row.action].kinds(from).map((kind) => ({ ...row, from, kind }))),
);

describe('allowed: each row moves an order from every status it names', () => {
  it.each(
    allowed.map(
      (c) =>
        [`${c.actor} ${c.action} moves a ${c.kind} order from ${c.from} to ${c.to}`, c] as const,
    ),
  )('%s, with an order_events row', async (_title, { action, actor, from, to, kind }) => {
    const spec = SPECS[action];
    const before = await orderIn(kind, from);
    const body = spec.body(kind);
    const res = await perform(t, action, before.id, CUSTOMER, body);

    expectMoved(res, to);
    const now = t.clock.now();
    const after = await orderRow(t.database.db, before.id);
    expect(after.status).toBe(to);
    expect(after.updated_at).toBe(now);
    expect(await eventsOf(t.database.db, before.id)).toEqual([
      {
        id: expect.any(Number) as number,
        order_id: before.id,
        from_status: from,
        to_status: to,
        actor,
        actor_id: actor === 'customer' ? CUSTOMER.id : OPERATOR.id,
        reason: spec.reason,
        created_at: now,
        message_id: null,
      },
    ]);
    await spec.effect?.(after, body, kind, now);
  });
});

const refused = HTTP_ROWS.flatMap((row) => {
  const done = row.actor === 'customer' ? (ALREADY_DONE[row.action] ?? []) : [];
  const taken = TAKEN_WITHOUT_CHANGE[row.action] ?? [];
  const skip = (s: OrderStatus) => row.from.includes(s) || done.includes(s) || taken.includes(s);
  return ORDER_STATUSES.filter((s) => !skip(s)).map((from) => ({
    ...row,
    from,
    kind: SPECS[row.action].kinds(from)[0] ?? naturalKind(from),
  }));
});

describe('refused: each row is refused from every status it does not name', () => {
  it.each(
    refused.map((c) => [`${c.actor} ${c.action} on a ${c.kind} order in ${c.from}`, c] as const),
  )(
    '%s answers 409 INVALID_STATUS with that status and changes nothing',
    async (_title, { action, from, kind }) => {
      const before = await orderIn(kind, from);
      const res = await perform(t, action, before.id, CUSTOMER, SPECS[action].body(kind));

      expectRefused(res, from);
      expect(await orderRow(t.database.db, before.id)).toEqual(before);
      expect(await eventsOf(t.database.db, before.id)).toEqual([]);
      const receipts = await t.database.db
        .selectFrom('receipts')
        .select('id')
        .where('order_id', '=', before.id)
        .execute();
      expect(receipts).toEqual([]);
    },
  );
});

const alreadyDone = HTTP_ROWS.filter((row) => row.actor === 'customer').flatMap((row) =>
  (ALREADY_DONE[row.action] ?? []).map((from) => ({
    ...row,
    from,
    kind: SPECS[row.action].kinds(from)[0] ?? naturalKind(from),
  })),
);

describe('already done: a customer action repeated on an order past it succeeds without a change', () => {
  it.each(
    alreadyDone.map(
      (c) => [`customer ${c.action} on a ${c.kind} order already ${c.from}`, c] as const,
    ),
  )(
    '%s answers 200 with its status and no change, no event',
    async (_title, { action, from, kind }) => {
      const body = SPECS[action].body(kind);
      const before = await orderIn(kind, from, SPECS[action].holds?.(body));
      const res = await perform(t, action, before.id, CUSTOMER, body);

      expectMoved(res, from);
      expect(await orderRow(t.database.db, before.id)).toEqual(before);
      expect(await eventsOf(t.database.db, before.id)).toEqual([]);
    },
  );

  it.each(
    alreadyDone
      .filter((c) => SPECS[c.action].holds !== undefined)
      .map((c) => [`customer ${c.action} on a ${c.kind} order already ${c.from}`, c] as const),
  )(
    '%s with other data than it holds answers 409 TX_HASH_ALREADY_SUBMITTED and keeps what it holds',
    async (_title, { action, from, kind }) => {
      const before = await orderIn(kind, from, SPECS[action].holds?.(SPECS[action].body(kind)));
      const res = await perform(t, action, before.id, CUSTOMER, SPECS[action].body(kind));

      expect(res.statusCode).toBe(409);
      expect(res.json<ApiErrorBody>()).toMatchObject({
        code: 'TX_HASH_ALREADY_SUBMITTED',
        status: from,
      });
      expect(await orderRow(t.database.db, before.id)).toEqual(before);
    },
  );
});

const takenWithoutChange = HTTP_ROWS.filter((row) => row.actor === 'customer').flatMap((row) =>
  (TAKEN_WITHOUT_CHANGE[row.action] ?? []).flatMap((from) =>
    SPECS[row.action].kinds(from).map((kind) => ({ ...row, from, kind })),
  ),
);

describe('taken without a change: a further receipt is kept, never answered and dropped', () => {
  it.each(
    takenWithoutChange.map(
      (c) => [`customer ${c.action} on a ${c.kind} order already ${c.from}`, c] as const,
    ),
  )(
    '%s answers 200 with its status, no event, and keeps the receipt',
    async (_title, { action, from, kind }) => {
      const before = await orderIn(kind, from);
      const body = SPECS[action].body(kind);
      const res = await perform(t, action, before.id, CUSTOMER, body);

      expectMoved(res, from);
      const after = await orderRow(t.database.db, before.id);
      expect(after.status).toBe(from);
      expect(await eventsOf(t.database.db, before.id)).toEqual([]);
      await SPECS[action].effect?.(after, body, kind, t.clock.now());
    },
  );
});

describe('actions that fit only some orders', () => {
  it.each(['sell', 'officeBuy'] as const)(
    'a receipt is refused on a %s order with 409 and its status',
    async (kind) => {
      const before = await orderIn(kind, 'REQUISITES_READY');
      const res = await perform(
        t,
        'uploadReceipt',
        before.id,
        CUSTOMER,
        SPECS.uploadReceipt.body('p2pBuy'),
      );
      expectRefused(res, 'REQUISITES_READY');
      expect(await orderRow(t.database.db, before.id)).toEqual(before);
    },
  );

  it.each(['p2pBuy', 'bankBuy', 'officeBuy'] as const)(
    'a tx hash is refused on a %s order (only a sell sends crypto to us)',
    async (kind) => {
      const before = await orderIn(kind, 'WAITING_CRYPTO');
      const res = await perform(
        t,
        'submitTxHash',
        before.id,
        CUSTOMER,
        SPECS.submitTxHash.body(kind),
      );
      expectRefused(res, 'WAITING_CRYPTO');
      expect(await orderRow(t.database.db, before.id)).toEqual(before);
    },
  );

  it('a tx hash in the wrong shape for the network is refused with INVALID_TX_HASH', async () => {
    const before = await orderIn('sell', 'WAITING_CRYPTO');
    for (const txHash of [txHashFor('ERC20'), 'abc123', `${txHashFor('TRC20')}00`]) {
      const res = await perform(t, 'submitTxHash', before.id, CUSTOMER, { txHash });
      expect(res.statusCode).toBe(400);
      expect(res.json<ApiErrorBody>().code).toBe('INVALID_TX_HASH');
    }
    expect(await orderRow(t.database.db, before.id)).toEqual(before);
  });

  it('office instructions are refused with 409 for an order that is not an office order', async () => {
    const before = await orderIn('p2pBuy', 'OFFICE_PENDING');
    const res = await perform(t, 'giveOfficeInstructions', before.id, CUSTOMER, {
      instructions: OFFICE_INSTRUCTIONS,
    });
    expectRefused(res, 'OFFICE_PENDING');
    expect(await orderRow(t.database.db, before.id)).toEqual(before);
  });

  it.each([
    { kind: 'p2pBuy', body: BANK_REQUISITES, shape: 'bank requisites' },
    { kind: 'bankBuy', body: CARD_REQUISITES, shape: 'card requisites' },
    { kind: 'sell', body: CARD_REQUISITES, shape: 'card requisites' },
    { kind: 'officeBuy', body: BANK_REQUISITES, shape: 'bank requisites' },
  ] as const)(
    'requisites must fit the method: $shape on a $kind order answer 400 VALIDATION_FAILED',
    async ({ kind, body }) => {
      const before = await orderIn(kind, 'WAITING_REQUISITES');
      const res = await perform(t, 'giveRequisites', before.id, CUSTOMER, body);
      expect(res.statusCode).toBe(400);
      expect(res.json<ApiErrorBody>().code).toBe('VALIDATION_FAILED');
      expect(await orderRow(t.database.db, before.id)).toEqual(before);
    },
  );

  it.each(['p2pBuy', 'bankBuy'] as const)(
    'completing a %s needs the outgoing hash, in the shape of its network',
    async (kind) => {
      const before = await orderIn(kind, 'PAYMENT_CONFIRMED');
      const missing = await perform(t, 'complete', before.id, CUSTOMER, {});
      expect(missing.statusCode).toBe(400);
      expect(missing.json<ApiErrorBody>().code).toBe('VALIDATION_FAILED');
      const otherNetwork = kind === 'p2pBuy' ? txHashFor('ERC20') : txHashFor('TRC20');
      const wrong = await perform(t, 'complete', before.id, CUSTOMER, {
        outgoingTxHash: otherNetwork,
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json<ApiErrorBody>().code).toBe('INVALID_TX_HASH');
      expect(await orderRow(t.database.db, before.id)).toEqual(before);
    },
  );

  it.each(HTTP_ROWS.filter((row) => row.actor === 'customer').map((row) => row.action))(
    "customer %s on another customer's order answers 404 like a missing one",
    async (action) => {
      const from = HTTP_ROWS.find((row) => row.action === action)?.from[0] ?? 'REQUISITES_READY';
      const kind = SPECS[action].kinds(from)[0] ?? 'p2pBuy';
      const before = await orderIn(kind, from);
      const res = await perform(t, action, before.id, BOB, SPECS[action].body(kind));
      expect(res.statusCode).toBe(404);
      expect(res.json<ApiErrorBody>().code).toBe('ORDER_NOT_FOUND');
      expect(await orderRow(t.database.db, before.id)).toEqual(before);
    },
  );
});
