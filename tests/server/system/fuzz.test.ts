/**
 * A fuzz of every HTTP endpoint (malformed JSON, wrong types, unknown fields,
 * oversized bodies are 400 or 413 with a code, never 500, never a crash). Real orders in every
 * status the calls act on are made first, so hostile input reaches the services and the
 * database, not only the identity check: each valid body is taken and one field at a time is
 * replaced by a hostile value; path segments, query values, raw bodies, content types, methods,
 * identities and Accept-Language are bent the same way. Every request is sent as the caller the
 * route is for; valid ones also as every other caller, bent ones also as a PRNG-chosen share of
 * them: the other valid caller (customer or operator), nobody, and for the customer's routes the
 * customer's init data in the `telegramInitData` query field.
 *
 * Deterministic: a seeded PRNG chooses the values (FUZZ_SEED=<n> to try another sequence), and
 * order ids come from it too, so a failure reproduces. All failures are collected and reported
 * in one assertion message.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECEIPT_BODY_LIMIT_BYTES } from '../../../src/server/receipts/receipt-json';
import { RECEIPT_MAX_BYTES } from '../../../src/shared/limits';
import { DEMO_DEPOSIT_ADDRESSES } from '../../../src/server/platform/config/config';
import type { NewOrderRow } from '../../../src/server/platform/db/schema';
import { API_PATHS, type CreateOrderResponse } from '../../../src/shared/api';
import type { NetworkId } from '../../../src/shared/networks';
import type { OrderStatus } from '../../../src/shared/order-status';
import {
  ACCEPT_LANGUAGES,
  CONTROL_CHARACTERS,
  GENERIC_VALUES,
  ODD_QUERIES,
  PATH_SEGMENTS,
  QUERY_VALUES,
  jsonWith,
  malformedBodies,
  mutationsOf,
  oddEncodings,
  seededRng,
  shown,
  verdictOf,
  type FuzzValue,
  type Verdict,
} from '../../helpers/fuzz';
import { ALICE, BOB, initDataFor } from '../../helpers/identity';
import {
  BANK_REQUISITES,
  CARD_REQUISITES,
  OFFICE_INSTRUCTIONS,
  OPERATOR,
  OPERATOR_PATHS,
  ORDER_KINDS,
  STORED_BANK_REQUISITES,
  STORED_CARD_REQUISITES,
  createLifecycleApp,
  createPayload,
  expectMoved,
  pngFile,
  rateFor,
  receiptBody,
  rowOf,
  send,
  type OrderKind,
  type TestUser,
} from '../../helpers/lifecycle';
import { insertOrder } from '../../helpers/orders';
import type { TestApp } from '../../helpers/test-app';

const SEED = Number(process.env['FUZZ_SEED'] ?? '20261123');
const rng = seededRng(SEED);

const CUSTOMER = ALICE;
/** Owns one order, which every other caller must find missing. */
const STRANGER = BOB;

/** Generic values tried on each field besides the ones made from its valid value. */
const GENERIC_PER_FIELD = 3;
/**
 * How often a request is also sent as each caller it is not meant for: valid requests always;
 * bent paths, queries and raw bodies often (they are parsed before the identity is checked);
 * field mutations sometimes (they stop at the identity check).
 */
const EVERY = 1;
const SOME = 0.3;
const FEW = 0.1;

let t: TestApp;

// --- Orders in the statuses the calls act on ---

interface Slot {
  readonly kind: OrderKind;
  readonly status: OrderStatus;
}

const slotKey = (slot: Slot) => `${slot.kind}/${slot.status}`;

const SLOTS: readonly Slot[] = [
  ...(
    [
      'WAITING_REQUISITES',
      'REQUISITES_READY',
      'PAYMENT_PENDING',
      'PAYMENT_STARTED',
      'RECEIPT_UPLOADED',
      'PAYMENT_CONFIRMED',
      'COMPLETED',
      'CANCELLED',
      'REJECTED',
    ] as const
  ).map((status) => ({ kind: 'p2pBuy' as const, status })),
  ...(
    ['WAITING_REQUISITES', 'REQUISITES_READY', 'PAYMENT_PENDING', 'PAYMENT_CONFIRMED'] as const
  ).map((status) => ({ kind: 'bankBuy' as const, status })),
  ...(['OFFICE_PENDING', 'OFFICE_READY', 'COMPLETED'] as const).map((status) => ({
    kind: 'officeBuy' as const,
    status,
  })),
  ...(['WAITING_CRYPTO', 'TX_PENDING', 'TX_CONFIRMED', 'COMPLETED'] as const).map((status) => ({
    kind: 'sell' as const,
    status,
  })),
];

const slot = (kind: OrderKind, status: OrderStatus): Slot => {
  const found = SLOTS.find((s) => s.kind === kind && s.status === status);
  if (found === undefined) throw new Error(`no slot ${kind}/${status}`);
  return found;
};

const AFTER_REQUISITES: readonly OrderStatus[] = [
  'REQUISITES_READY',
  'PAYMENT_PENDING',
  'PAYMENT_STARTED',
  'RECEIPT_UPLOADED',
  'PAYMENT_CONFIRMED',
  'COMPLETED',
];

/** Row fields that make an order of `slot` look as the lifecycle would have left it. */
function rowFor(slot: Slot, now: number): Partial<NewOrderRow> & { status: OrderStatus } {
  const row: Partial<NewOrderRow> & { status: OrderStatus } = {
    ...rowOf(slot.kind),
    status: slot.status,
    created_at: now,
  };
  if (slot.kind === 'p2pBuy' && AFTER_REQUISITES.includes(slot.status)) {
    row.requisites = JSON.stringify(STORED_CARD_REQUISITES);
    row.requisites_ready_at = now;
    row.expires_at = now + 3_600_000;
  }
  if (slot.kind === 'bankBuy' && AFTER_REQUISITES.includes(slot.status)) {
    row.requisites = JSON.stringify(STORED_BANK_REQUISITES);
    row.requisites_ready_at = now;
    row.expires_at = now + 86_400_000;
  }
  if (slot.kind === 'officeBuy' && slot.status !== 'OFFICE_PENDING') {
    row.office_instructions = OFFICE_INSTRUCTIONS;
    row.office_id = 'moscow-city-tower';
    row.reservation = JSON.stringify({ reservationCode: 'ABC234' });
    row.reserved_until = now + 3 * 3_600_000;
    row.requisites_ready_at = now;
  }
  if (slot.kind === 'sell') {
    row.requisites = JSON.stringify({ walletAddress: DEMO_DEPOSIT_ADDRESSES.trc20 });
    row.expires_at = now + 3_600_000;
    if (slot.status !== 'WAITING_CRYPTO') row.tx_hash = rng.hex(64);
  }
  return row;
}

/** The customer's orders, one per slot; an order a call moved is retired and replaced. */
const pool = new Map<string, string>();

async function fillSlot(s: Slot): Promise<void> {
  const id = rng.uuid();
  await insertOrder(t.database.db, CUSTOMER, { ...rowFor(s, t.clock.now()), id });
  pool.set(slotKey(s), id);
}

function idOf(s: Slot): string {
  const id = pool.get(slotKey(s));
  if (id === undefined) throw new Error(`slot ${slotKey(s)} is empty`);
  return id;
}

/** Takes an order out of the customer's active ones, so creates stay under the limit. */
async function retire(id: string): Promise<void> {
  await t.database.db
    .updateTable('orders')
    .set({ status: 'CANCELLED' })
    .where('id', '=', id)
    .execute();
}

let strangerOrder: string;
let receiptOrder: string;
let receiptId: string;
const rates = { RUB_USDT: 0, P2P_BUY_BP: 0 };
const rateOf: Partial<Record<OrderKind, number>> = {};

// --- Requests ---

type Method = 'GET' | 'POST' | 'PUT' | 'HEAD' | 'DELETE' | 'PATCH' | 'OPTIONS';
type Caller = 'customer' | 'operator' | 'nobody';
type Identity = Caller | 'customer in query';

interface Probe {
  /** The route it aims at, as registered: failures are grouped by it. */
  readonly route: string;
  readonly method: Method;
  readonly who: Identity;
  /** A short description of what is bent. */
  readonly what: string;
  /** Evaluated when sent, so that it names the slot's current order. */
  readonly url: () => string;
  readonly body?: () => string | Buffer;
  /** undefined: application/json when there is a body; null: no content-type at all. */
  readonly contentType?: string | null;
  readonly headers?: Readonly<Record<string, string>>;
}

const probes: Probe[] = [];
const OTHER_CALLERS: Readonly<Record<Caller, readonly Identity[]>> = {
  customer: ['operator', 'nobody', 'customer in query'],
  operator: ['customer', 'nobody'],
  nobody: ['customer', 'operator'],
};

/** The probe as its own caller, and as each other caller with the probability `share`. */
function add(probe: Omit<Probe, 'who'>, caller: Caller, share: number): void {
  probes.push({ ...probe, who: caller });
  for (const other of OTHER_CALLERS[caller]) {
    if (rng.chance(share)) probes.push({ ...probe, who: other });
  }
}

// --- The routes ---

interface BodyCase {
  readonly label: string;
  readonly slots: readonly Slot[];
  readonly body: () => Record<string, unknown>;
}

interface OrderRoute {
  readonly method: 'GET' | 'POST';
  /** The registered path, `:id` for the order. */
  readonly template: string;
  readonly caller: 'customer' | 'operator';
  readonly bodies: readonly BodyCase[];
}

const tronHash = () => rng.hex(64);
const EMPTY = () => ({});
const ACTIVE_SLOTS = SLOTS.filter(
  (s) => !['COMPLETED', 'CANCELLED', 'REJECTED'].includes(s.status),
);

const ORDER_ROUTES: readonly OrderRoute[] = [
  {
    method: 'GET',
    template: '/api/orders/:id/status',
    caller: 'customer',
    bodies: [{ label: 'status', slots: SLOTS, body: EMPTY }],
  },
  {
    method: 'GET',
    template: '/api/orders/:id/requisites',
    caller: 'customer',
    bodies: [
      {
        label: 'requisites',
        slots: [slot('bankBuy', 'REQUISITES_READY'), slot('bankBuy', 'WAITING_REQUISITES')],
        body: EMPTY,
      },
    ],
  },
  {
    method: 'POST',
    template: '/api/orders/:id/cancel',
    caller: 'customer',
    bodies: [
      {
        label: 'cancel',
        slots: [
          slot('p2pBuy', 'WAITING_REQUISITES'),
          slot('p2pBuy', 'REQUISITES_READY'),
          slot('officeBuy', 'OFFICE_PENDING'),
          slot('sell', 'WAITING_CRYPTO'),
        ],
        body: EMPTY,
      },
    ],
  },
  {
    method: 'POST',
    template: '/api/orders/:id/payment-confirm',
    caller: 'customer',
    bodies: [
      {
        label: 'payment-confirm',
        slots: [slot('p2pBuy', 'REQUISITES_READY'), slot('bankBuy', 'REQUISITES_READY')],
        body: EMPTY,
      },
    ],
  },
  {
    method: 'POST',
    template: '/api/orders/:id/receipt',
    caller: 'customer',
    bodies: [
      {
        label: 'receipt',
        slots: [
          slot('p2pBuy', 'PAYMENT_PENDING'),
          slot('p2pBuy', 'RECEIPT_UPLOADED'),
          slot('bankBuy', 'PAYMENT_PENDING'),
        ],
        body: () => receiptBody(pngFile(rng.hex(16)), 'image/png', 'чек 1.png'),
      },
    ],
  },
  {
    method: 'POST',
    template: '/api/orders/:id/tx-hash',
    caller: 'customer',
    bodies: [
      {
        label: 'tx-hash',
        slots: [slot('sell', 'WAITING_CRYPTO')],
        body: () => ({ txHash: tronHash(), network: 'TRC20' satisfies NetworkId }),
      },
    ],
  },
  {
    method: 'POST',
    template: '/api/orders/:id/office-confirm',
    caller: 'customer',
    bodies: [{ label: 'office-confirm', slots: [slot('officeBuy', 'OFFICE_READY')], body: EMPTY }],
  },
  {
    method: 'GET',
    template: '/api/operator/orders/:id',
    caller: 'operator',
    bodies: [{ label: 'operator order', slots: SLOTS, body: EMPTY }],
  },
  {
    method: 'POST',
    template: '/api/operator/orders/:id/requisites',
    caller: 'operator',
    bodies: [
      {
        label: 'card requisites',
        slots: [slot('p2pBuy', 'WAITING_REQUISITES')],
        body: () => ({ ...CARD_REQUISITES, phone: '+7 916 123-45-67' }),
      },
      {
        label: 'bank requisites',
        slots: [slot('bankBuy', 'WAITING_REQUISITES')],
        body: () => ({
          ...BANK_REQUISITES,
          bankAddress: 'Москва, ул. Вавилова, 19',
          beneficiaryName: 'ООО «Северный обмен»',
          beneficiaryAccount: '40702810938000123456',
        }),
      },
    ],
  },
  {
    method: 'POST',
    template: '/api/operator/orders/:id/office-instructions',
    caller: 'operator',
    bodies: [
      {
        label: 'office-instructions',
        slots: [slot('officeBuy', 'OFFICE_PENDING')],
        body: () => ({ instructions: OFFICE_INSTRUCTIONS, officeId: 'moscow-city-tower' }),
      },
    ],
  },
  {
    method: 'POST',
    template: '/api/operator/orders/:id/confirm-payment',
    caller: 'operator',
    bodies: [
      {
        label: 'confirm-payment',
        slots: [slot('p2pBuy', 'PAYMENT_PENDING'), slot('p2pBuy', 'RECEIPT_UPLOADED')],
        body: EMPTY,
      },
    ],
  },
  {
    method: 'POST',
    template: '/api/operator/orders/:id/confirm-tx',
    caller: 'operator',
    bodies: [{ label: 'confirm-tx', slots: [slot('sell', 'TX_PENDING')], body: EMPTY }],
  },
  {
    method: 'POST',
    template: '/api/operator/orders/:id/complete',
    caller: 'operator',
    bodies: [
      {
        label: 'complete a buy',
        slots: [slot('p2pBuy', 'PAYMENT_CONFIRMED'), slot('bankBuy', 'PAYMENT_CONFIRMED')],
        body: () => ({ outgoingTxHash: tronHash() }),
      },
      {
        label: 'complete',
        slots: [slot('sell', 'TX_CONFIRMED'), slot('officeBuy', 'OFFICE_READY')],
        body: EMPTY,
      },
    ],
  },
  {
    method: 'POST',
    template: '/api/operator/orders/:id/reject',
    caller: 'operator',
    bodies: [
      {
        label: 'reject',
        slots: ACTIVE_SLOTS,
        body: () => ({ reason: 'Платёж не поступил в срок.\nДеньги не списаны.' }),
      },
    ],
  },
];

const orderUrl = (template: string, segment: string) => template.replace(':id', segment);

/** Keys no body of ours has, added to each: the `telegramInitData` identity field and prototype keys. */
const EXTRA_KEYS = ['telegramInitData', '__proto__', 'constructor', 'prototype', 'unknownField'];

/** One field of `base` replaced at a time: values made from it and a sample of generic ones. */
function fieldMutations(
  base: Readonly<Record<string, unknown>>,
): readonly (readonly [key: string, value: FuzzValue])[] {
  const out: (readonly [string, FuzzValue])[] = [];
  for (const key of Object.keys(base)) {
    for (const value of [
      ...mutationsOf(base[key]),
      ...rng.sample(GENERIC_VALUES, GENERIC_PER_FIELD),
    ]) {
      out.push([key, value]);
    }
  }
  for (const key of EXTRA_KEYS) {
    for (const value of rng.sample(GENERIC_VALUES, GENERIC_PER_FIELD)) out.push([key, value]);
  }
  return out;
}

/** Valid create payloads, one per kind of order, at the server's rate. */
function createBodies(): readonly { label: string; body: Record<string, unknown> }[] {
  const of = (kind: OrderKind, extra: object = {}) => ({
    label: `create ${kind}`,
    body: createPayload(kind, rateOf[kind] ?? 0, extra) as Record<string, unknown>,
  });
  return [
    of('p2pBuy'),
    of('bankBuy'),
    of('officeBuy'),
    of('sell', { comment: 'Перевод до 18:00, пожалуйста' }),
  ];
}

function buildProbes(): void {
  const ROUTE_CREATE = `POST ${API_PATHS.createOrder}`;

  // System calls and the lists: their queries bent key by key, and whole odd queries.
  const queryRoutes: readonly {
    route: string;
    caller: Caller;
    path: string;
    query: Readonly<Record<string, string>>;
  }[] = [
    { route: API_PATHS.health, caller: 'nobody', path: API_PATHS.health, query: {} },
    { route: API_PATHS.appConfig, caller: 'nobody', path: API_PATHS.appConfig, query: {} },
    {
      route: API_PATHS.demoSession,
      caller: 'nobody',
      path: API_PATHS.demoSession,
      query: { startParam: `order_${rng.uuid()}` },
    },
    {
      route: API_PATHS.rate,
      caller: 'customer',
      path: API_PATHS.rate,
      query: {
        amount: '15000',
        currency: 'RUB',
        operation: 'BUY',
        cryptoCurrency: 'USDT',
        paymentMethod: 'P2P',
      },
    },
    { route: API_PATHS.activeOrders, caller: 'customer', path: API_PATHS.activeOrders, query: {} },
    {
      route: API_PATHS.history,
      caller: 'customer',
      path: API_PATHS.history,
      query: { status: 'all', limit: '20', offset: '0' },
    },
    {
      route: OPERATOR_PATHS.orders,
      caller: 'operator',
      path: OPERATOR_PATHS.orders,
      query: {
        q: 'alice',
        from: '2026-11-01',
        to: '2026-11-30',
        status: 'active',
        type: 'BUY',
        method: 'P2P',
        limit: '50',
        offset: '0',
      },
    },
    { route: OPERATOR_PATHS.rates, caller: 'operator', path: OPERATOR_PATHS.rates, query: {} },
    { route: OPERATOR_PATHS.queue, caller: 'operator', path: OPERATOR_PATHS.queue, query: {} },
    { route: API_PATHS.me, caller: 'customer', path: API_PATHS.me, query: {} },
  ];
  for (const r of queryRoutes) {
    const route = `GET ${r.route}`;
    const withQuery = (entries: readonly (readonly [string, string])[]) =>
      `${r.path}?${entries.map(([k, v]) => `${k}=${v}`).join('&')}`;
    const base = Object.entries(r.query).map(([k, v]) => [k, encodeURIComponent(v)] as const);
    add({ route, method: 'GET', what: 'valid query', url: () => withQuery(base) }, r.caller, EVERY);
    for (const [key, value] of base) {
      const others = base.filter(([k]) => k !== key);
      const variants: (readonly [string, readonly (readonly [string, string])[]])[] = [
        ...QUERY_VALUES.map(
          ([label, v]) => [`${key}=${label}`, [...others, [key, v] as const]] as const,
        ),
        [`${key} missing`, others],
        [`${key}=value%00`, [...others, [key, `${value}%00`]]],
        [`${key}=value in lower case`, [...others, [key, value.toLowerCase()]]],
        [`${key} twice`, [...base, [key, value]]],
        [`${key} twice, second %00`, [...base, [key, '%00']]],
        [`${key}[]=value`, [...others, [`${key}%5B%5D`, value]]],
        [`${key}[a]=value`, [...others, [`${key}%5Ba%5D`, value]]],
      ];
      for (const [what, entries] of variants) {
        add(
          { route, method: 'GET', what: `query ${what}`, url: () => withQuery(entries) },
          r.caller,
          SOME,
        );
      }
    }
    for (const [label, query] of ODD_QUERIES) {
      const suffix = base.length === 0 ? query : `${withQuery(base).split('?')[1] ?? ''}&${query}`;
      add(
        { route, method: 'GET', what: `query: ${label}`, url: () => `${r.path}?${suffix}` },
        r.caller,
        SOME,
      );
    }
  }

  // Cities: the currency code path segment.
  for (const [label, segment] of [
    ['RUB', 'RUB'],
    ['rub', 'rub'],
    ['USD', 'USD'],
    ['XXX', 'XXX'],
    ['RUB%00', 'RUB%00'],
    ['%00RUB', '%00RUB'],
    ...PATH_SEGMENTS,
  ] as const) {
    add(
      {
        route: 'GET /api/cities/:currencyCode',
        method: 'GET',
        what: `currencyCode=${label}`,
        url: () => `/api/cities/${segment}`,
      },
      'nobody',
      SOME,
    );
  }

  // Create: each kind's valid payload, one field at a time, then raw bodies and encodings.
  for (const { label, body } of createBodies()) {
    add(
      {
        route: ROUTE_CREATE,
        method: 'POST',
        what: `${label}: valid`,
        url: () => API_PATHS.createOrder,
        body: () => JSON.stringify(body),
      },
      'customer',
      EVERY,
    );
    for (const [key, value] of fieldMutations(body)) {
      add(
        {
          route: ROUTE_CREATE,
          method: 'POST',
          what: `${label}: ${key} = ${value.label}`,
          url: () => API_PATHS.createOrder,
          body: () => jsonWith(body, key, value),
        },
        'customer',
        FEW,
      );
    }
  }

  // Order routes: valid bodies on real orders, one field at a time; then the id segment.
  for (const r of ORDER_ROUTES) {
    const route = `${r.method} ${r.template}`;
    for (const bodyCase of r.bodies) {
      for (const s of bodyCase.slots) {
        add(
          {
            route,
            method: r.method,
            what: `${bodyCase.label} on ${slotKey(s)}: valid`,
            url: () => orderUrl(r.template, idOf(s)),
            ...(r.method === 'POST' ? { body: () => JSON.stringify(bodyCase.body()) } : {}),
          },
          r.caller,
          EVERY,
        );
      }
      if (r.method === 'POST') {
        for (const [key, value] of fieldMutations(bodyCase.body())) {
          const s = rng.pick(bodyCase.slots);
          add(
            {
              route,
              method: 'POST',
              what: `${bodyCase.label} on ${slotKey(s)}: ${key} = ${value.label}`,
              url: () => orderUrl(r.template, idOf(s)),
              body: () => jsonWith(bodyCase.body(), key, value),
            },
            r.caller,
            FEW,
          );
        }
      }
    }
    const first = r.bodies[0];
    if (first === undefined) continue;
    const s = rng.pick(first.slots);
    const body = r.method === 'POST' ? { body: () => JSON.stringify(first.body()) } : {};
    const segments: (readonly [string, () => string])[] = [
      ['real id in capitals', () => idOf(s).toUpperCase()],
      ['real id with %2D for each hyphen', () => idOf(s).replaceAll('-', '%2D')],
      ['real id+%00', () => `${idOf(s)}%00`],
      ['%00+real id', () => `%00${idOf(s)}`],
      ['real id+%20', () => `${idOf(s)}%20`],
      ['real id+%E2%80%AE', () => `${idOf(s)}%E2%80%AE`],
      ["the stranger's order", () => strangerOrder],
      ['a random UUID', () => rng.uuid()],
      ['the nil UUID', () => '00000000-0000-0000-0000-000000000000'],
      ['empty', () => ''],
      ...PATH_SEGMENTS.map(([label, segment]) => [label, () => segment] as const),
    ];
    for (const [label, segment] of segments) {
      add(
        {
          route,
          method: r.method,
          what: `id=${label}`,
          url: () => orderUrl(r.template, segment()),
          ...body,
        },
        r.caller,
        SOME,
      );
    }
  }

  // The receipt download: both ids bent.
  const receiptRoute = 'GET /api/operator/orders/:id/receipts/:receiptId';
  const receiptUrl = (id: string, rid: string) => `/api/operator/orders/${id}/receipts/${rid}`;
  const receiptCases: (readonly [string, () => string])[] = [
    ['valid', () => receiptUrl(receiptOrder, receiptId)],
    ['receiptId in capitals', () => receiptUrl(receiptOrder, receiptId.toUpperCase())],
    ['receiptId+%00', () => receiptUrl(receiptOrder, `${receiptId}%00`)],
    ['receiptId of a random UUID', () => receiptUrl(receiptOrder, rng.uuid())],
    ['the receipt under another order', () => receiptUrl(strangerOrder, receiptId)],
    ...PATH_SEGMENTS.map(
      ([label, seg]) => [`receiptId=${label}`, () => receiptUrl(receiptOrder, seg)] as const,
    ),
    ...PATH_SEGMENTS.map(
      ([label, seg]) => [`id=${label}`, () => receiptUrl(seg, receiptId)] as const,
    ),
  ];
  for (const [what, url] of receiptCases) {
    add({ route: receiptRoute, method: 'GET', what, url }, 'operator', SOME);
  }

  // Raw bodies and odd encodings, on every route that takes a body.
  const bodyRoutes: readonly {
    route: string;
    caller: Caller;
    url: () => string;
    valid: () => string;
  }[] = [
    {
      route: ROUTE_CREATE,
      caller: 'customer',
      url: () => API_PATHS.createOrder,
      valid: () => JSON.stringify(createBodies()[3]?.body ?? {}),
    },
    ...ORDER_ROUTES.filter((r) => r.method === 'POST').map((r) => {
      const bodyCase = r.bodies[0];
      if (bodyCase === undefined) throw new Error(`no body for ${r.template}`);
      const s = rng.pick(bodyCase.slots);
      return {
        route: `POST ${r.template}`,
        caller: r.caller,
        url: () => orderUrl(r.template, idOf(s)),
        valid: () => JSON.stringify(bodyCase.body()),
      };
    }),
    {
      route: `PUT ${OPERATOR_PATHS.rates}`,
      caller: 'operator',
      url: () => OPERATOR_PATHS.rates,
      valid: () => JSON.stringify({ fiat: 'RUB', crypto: 'USDT', baseRate: rates.RUB_USDT }),
    },
    {
      route: `PUT ${OPERATOR_PATHS.spreads}`,
      caller: 'operator',
      url: () => OPERATOR_PATHS.spreads,
      valid: () =>
        JSON.stringify({ paymentMethod: 'P2P', operation: 'BUY', spreadBp: rates.P2P_BUY_BP }),
    },
  ];
  for (const r of bodyRoutes) {
    const method = r.route.startsWith('PUT') ? 'PUT' : 'POST';
    const sample = r.valid();
    for (const [label, raw] of malformedBodies(sample)) {
      add({ route: r.route, method, what: label, url: r.url, body: () => raw }, r.caller, SOME);
    }
    for (const [label, contentType, payload] of oddEncodings(sample)) {
      add(
        { route: r.route, method, what: label, url: r.url, body: () => payload, contentType },
        r.caller,
        SOME,
      );
    }
  }

  // Rates and spreads, one field at a time (last: a change that passes moves every quote).
  const putBodies = [
    {
      route: `PUT ${OPERATOR_PATHS.rates}`,
      url: OPERATOR_PATHS.rates,
      body: { fiat: 'RUB', crypto: 'USDT', baseRate: rates.RUB_USDT },
    },
    {
      route: `PUT ${OPERATOR_PATHS.spreads}`,
      url: OPERATOR_PATHS.spreads,
      body: { paymentMethod: 'P2P', operation: 'BUY', spreadBp: rates.P2P_BUY_BP },
    },
  ];
  for (const p of putBodies) {
    add(
      {
        route: p.route,
        method: 'PUT',
        what: 'valid',
        url: () => p.url,
        body: () => JSON.stringify(p.body),
      },
      'operator',
      EVERY,
    );
    for (const [key, value] of fieldMutations(p.body)) {
      add(
        {
          route: p.route,
          method: 'PUT',
          what: `${key} = ${value.label}`,
          url: () => p.url,
          body: () => jsonWith(p.body, key, value),
        },
        'operator',
        FEW,
      );
    }
  }
}

/** Methods no route has, a GET with a body, and Accept-Language headers on error answers. */
function buildOddRequests(): void {
  const anOrder = () => idOf(slot('p2pBuy', 'REQUISITES_READY'));
  const paths: readonly (readonly [string, Method, () => string])[] = [
    [API_PATHS.health, 'GET', () => API_PATHS.health],
    [API_PATHS.createOrder, 'POST', () => API_PATHS.createOrder],
    [API_PATHS.activeOrders, 'GET', () => API_PATHS.activeOrders],
    ['/api/orders/:id/status', 'GET', () => API_PATHS.orderStatus(anOrder())],
    ['/api/orders/:id/cancel', 'POST', () => API_PATHS.cancel(anOrder())],
    ['/api/orders/:id/receipt', 'POST', () => API_PATHS.receipt(anOrder())],
    [OPERATOR_PATHS.orders, 'GET', () => OPERATOR_PATHS.orders],
    ['/api/operator/orders/:id/reject', 'POST', () => OPERATOR_PATHS.reject(anOrder())],
    [OPERATOR_PATHS.rates, 'PUT', () => OPERATOR_PATHS.rates],
  ];
  for (const [template, own, url] of paths) {
    const methods: Method[] = ['DELETE', 'PATCH', 'OPTIONS'];
    if (own === 'GET') methods.push('HEAD', 'POST', 'PUT');
    else methods.push('GET', own === 'PUT' ? 'POST' : 'PUT');
    for (const method of methods) {
      add(
        {
          route: `${own} ${template}`,
          method,
          what: `method ${method}`,
          url,
          ...(method === 'GET' || method === 'HEAD' ? {} : { body: () => '{"a":1}' }),
        },
        'customer',
        SOME,
      );
    }
  }
  for (const [what, payload] of [
    ['GET with a malformed JSON body', '{"a":'],
    ['GET with a JSON body', '{"telegramInitData":"\\u0000"}'],
  ] as const) {
    add(
      {
        route: `GET ${API_PATHS.activeOrders}`,
        method: 'GET',
        what,
        url: () => API_PATHS.activeOrders,
        body: () => payload,
      },
      'customer',
      EVERY,
    );
  }
  for (const language of ACCEPT_LANGUAGES) {
    const headers = { 'accept-language': language };
    const what = `accept-language: ${language.slice(0, 40)}`;
    probes.push(
      {
        route: `GET ${API_PATHS.activeOrders}`,
        method: 'GET',
        who: 'nobody',
        what,
        url: () => API_PATHS.activeOrders,
        headers,
      },
      {
        route: 'GET /api/nothing-here',
        method: 'GET',
        who: 'customer',
        what,
        url: () => '/api/nothing-here',
        headers,
      },
      {
        route: `POST ${API_PATHS.createOrder}`,
        method: 'POST',
        who: 'customer',
        what: `${what}, malformed JSON`,
        url: () => API_PATHS.createOrder,
        body: () => '{',
        headers,
      },
    );
  }
}

/** Identities bent: Authorization headers, the telegramInitData field, odd signed users. */
function buildIdentityProbes(): void {
  const valid = initDataFor(CUSTOMER);
  const targets: readonly (readonly [string, Method, () => string, (() => string) | undefined])[] =
    [
      [`GET ${API_PATHS.activeOrders}`, 'GET', () => API_PATHS.activeOrders, undefined],
      [
        'POST /api/orders/:id/cancel',
        'POST',
        () => API_PATHS.cancel(idOf(slot('p2pBuy', 'WAITING_REQUISITES'))),
        () => '{}',
      ],
      [`GET ${OPERATOR_PATHS.orders}`, 'GET', () => OPERATOR_PATHS.orders, undefined],
    ];
  const authorizations: readonly (readonly [string, string])[] = [
    ['empty', ''],
    ['tma', 'tma'],
    ['tma and a space', 'tma '],
    ['TMA in capitals', `TMA ${valid}`],
    ['Bearer', `Bearer ${valid}`],
    ['Basic', 'Basic Zm9vOmJhcg=='],
    ['tma with two values', `tma ${valid} ${valid}`],
    ['tma with a changed hash', `tma ${valid.replace(/hash=[0-9a-f]/, 'hash=g')}`],
    ['tma without a hash', `tma ${valid.replace(/&?hash=[0-9a-f]+/, '')}`],
    ['tma with %00', 'tma %00'],
    ['tma with user={}', 'tma user=%7B%7D&hash=00'],
    ['tma with a malformed escape', 'tma user=%ZZ&hash=%'],
    ['tma with 10 000 characters', `tma ${'a'.repeat(10_000)}`],
    ['tma signed with another token', `tma ${initDataFor(CUSTOMER, { token: '1:other-token' })}`],
    [
      'tma signed two days ago',
      `tma ${initDataFor(CUSTOMER, { authDate: new Date(Date.now() - 2 * 86_400_000) })}`,
    ],
    [
      'tma signed in the future',
      `tma ${initDataFor(CUSTOMER, { authDate: new Date(Date.now() + 86_400_000) })}`,
    ],
  ];
  for (const [route, method, url, body] of targets) {
    for (const [label, authorization] of authorizations) {
      probes.push({
        route,
        method,
        who: 'nobody',
        what: `authorization: ${label}`,
        url,
        headers: { authorization },
        ...(body === undefined ? {} : { body }),
      });
    }
    for (const [label, value] of [
      ...QUERY_VALUES,
      ['valid twice', `${encodeURIComponent(valid)}&telegramInitData=${encodeURIComponent(valid)}`],
    ] as const) {
      probes.push({
        route,
        method,
        who: 'nobody',
        what: `query telegramInitData=${label}`,
        url: () => `${url()}${url().includes('?') ? '&' : '?'}telegramInitData=${value}`,
        ...(body === undefined ? {} : { body }),
      });
    }
    if (method === 'POST') {
      for (const value of GENERIC_VALUES) {
        probes.push({
          route,
          method,
          who: 'nobody',
          what: `body telegramInitData = ${value.label}`,
          url,
          body: () => jsonWith({}, 'telegramInitData', value),
        });
      }
    }
  }

  // Signed by the bot, so valid, but with names and ids no form would let through.
  const oddUsers: readonly (readonly [string, TestUser])[] = [
    ...CONTROL_CHARACTERS.map(
      ([label, char]) =>
        [`first_name ${label}`, { id: 0, first_name: `Ann${char}a`, language_code: 'en' }] as const,
    ),
    ['empty first_name', { id: 0, first_name: '' }],
    ['first_name of 5000 characters', { id: 0, first_name: 'Я'.repeat(5_000) }],
    ['username with NUL', { id: 0, first_name: 'Ann', username: 'ann\u0000' }],
    ['language_code with NUL', { id: 0, first_name: 'Ann', language_code: 'ru\u0000' }],
    [
      'language_code of 100 characters',
      { id: 0, first_name: 'Ann', language_code: 'x'.repeat(100) },
    ],
    ['id 0', { id: 0, first_name: 'Zero' }],
    ['id -1', { id: -1, first_name: 'Minus' }],
    ['id 2**53+1', { id: 2 ** 53 + 1, first_name: 'Huge' }],
    ['id 1.5', { id: 1.5, first_name: 'Half' }],
  ];
  let nextId = 900_000_000;
  for (const [label, user] of oddUsers) {
    nextId += 1;
    const signed = { ...user, id: user.id === 0 ? nextId : user.id };
    let initData: string;
    try {
      initData = initDataFor(signed);
    } catch {
      continue; // the signing library refuses it: Telegram could not send it either
    }
    const headers = { authorization: `tma ${initData}` };
    probes.push(
      {
        route: `GET ${API_PATHS.activeOrders}`,
        method: 'GET',
        who: 'nobody',
        what: `signed user: ${label}`,
        url: () => API_PATHS.activeOrders,
        headers,
      },
      {
        route: `POST ${API_PATHS.createOrder}`,
        method: 'POST',
        who: 'nobody',
        what: `signed user: ${label}, valid sell`,
        url: () => API_PATHS.createOrder,
        body: () => JSON.stringify(createBodies()[3]?.body ?? {}),
        headers,
      },
    );
  }
}

/** Bodies just over the receipt's body limit (slow: only a few), and a receipt over 10 MB under it. */
function buildOversized(): void {
  const over = 'A'.repeat(RECEIPT_BODY_LIMIT_BYTES + 16);
  const receiptOf = (s: Slot) => () => API_PATHS.receipt(idOf(s));
  const pending = slot('p2pBuy', 'PAYMENT_PENDING');
  // A byte over 10 MB of PNG: its base64 fits the receipt's body limit, the file does not fit 10 MB.
  const bigPng = Buffer.alloc(RECEIPT_MAX_BYTES + 1, 7);
  pngFile('x').copy(bigPng, 0, 0, 33);
  const receipt = 'POST /api/orders/:id/receipt';
  const cases: readonly (readonly [string, string, Caller, () => string, string, () => string])[] =
    [
      [
        'create with a 14 MB walletAddress',
        `POST ${API_PATHS.createOrder}`,
        'customer',
        () => API_PATHS.createOrder,
        'application/json',
        () => `{"walletAddress":"${over}"}`,
      ],
      [
        'receipt with 14 MB of fileData',
        receipt,
        'customer',
        receiptOf(pending),
        'application/json',
        () => `{"fileName":"a.png","fileData":"data:image/png;base64,${over}"}`,
      ],
      ['14 MB as text/plain', receipt, 'nobody', receiptOf(pending), 'text/plain', () => over],
      [
        'reject with a 14 MB reason',
        'POST /api/operator/orders/:id/reject',
        'operator',
        () => OPERATOR_PATHS.reject(idOf(slot('p2pBuy', 'WAITING_REQUISITES'))),
        'application/json',
        () => `{"reason":"${over}"}`,
      ],
      [
        'receipt of a PNG a byte over 10 MB, in a body under the limit',
        receipt,
        'customer',
        receiptOf(pending),
        'application/json',
        () => JSON.stringify(receiptBody(bigPng, 'image/png', 'big.png')),
      ],
    ];
  for (const [what, route, who, url, contentType, body] of cases) {
    probes.push({ route, method: 'POST', who, what, url, body, contentType });
  }
}

// --- Sending and judging ---

interface Failure {
  readonly probe: Probe;
  readonly url: string;
  readonly status: number;
  readonly verdict: Verdict;
  readonly body: string;
  readonly serverError: string | undefined;
}

const failures: Failure[] = [];
let sent = 0;
let lastServerError: Error | undefined;
/** The error the last request threw inside the server, if any (read once). */
function takeServerError(): string | undefined {
  const error = lastServerError;
  lastServerError = undefined;
  if (error === undefined) return undefined;
  const where = error.stack?.split('\n').find((line) => line.includes('/src/'));
  return `${error.name}: ${error.message}${where === undefined ? '' : ` ${where.trim()}`}`;
}
let headerOf: Readonly<Record<Caller, Readonly<Record<string, string>>>>;

async function fire(probe: Probe): Promise<LightMyRequestResponse> {
  let url = probe.url();
  const headers: Record<string, string> = {};
  if (probe.who === 'customer in query') {
    url += `${url.includes('?') ? '&' : '?'}telegramInitData=${encodeURIComponent(initDataFor(CUSTOMER))}`;
  } else {
    Object.assign(headers, headerOf[probe.who]);
  }
  const payload = probe.body?.();
  if (payload !== undefined && probe.contentType !== null) {
    headers['content-type'] = probe.contentType ?? 'application/json';
  }
  Object.assign(headers, probe.headers);
  takeServerError();
  const res = await t.app.inject({
    method: probe.method,
    url,
    headers,
    ...(payload === undefined ? {} : { payload }),
  });
  sent += 1;
  const verdict = verdictOf(res, probe.method);
  if (verdict !== 'ok') {
    failures.push({
      probe,
      url,
      status: res.statusCode,
      verdict,
      body: res.body,
      serverError: takeServerError(),
    });
  }
  if (
    res.statusCode >= 200 &&
    res.statusCode < 300 &&
    (probe.method === 'POST' || probe.method === 'PUT')
  ) {
    if (probe.route === `POST ${API_PATHS.createOrder}`) {
      await retire(res.json<CreateOrderResponse>().orderId);
    }
    // The call may have moved the order its URL names (in whatever spelling): put a fresh one
    // in its slot, so later requests still find every status.
    const named = url.toLowerCase().replaceAll('%2d', '-');
    for (const s of SLOTS) {
      const id = idOf(s);
      if (!named.includes(id)) continue;
      await retire(id);
      await fillSlot(s);
    }
  }
  return res;
}

function report(): string {
  const distinct = new Map<string, { failure: Failure; callers: Set<Identity>; count: number }>();
  for (const f of failures) {
    const key = `${f.probe.route} | ${f.probe.what} | ${f.status} | ${f.verdict}`;
    const entry = distinct.get(key);
    if (entry === undefined)
      distinct.set(key, { failure: f, callers: new Set([f.probe.who]), count: 1 });
    else {
      entry.callers.add(f.probe.who);
      entry.count += 1;
    }
  }
  const lines = [...distinct.values()].map(({ failure: f, callers, count }) =>
    [
      `- ${f.probe.route} [${[...callers].join(', ')}]${count > 1 ? ` ×${count}` : ''}: ${shown(f.probe.what, 100)}`,
      `    ${f.probe.method} ${shown(f.url, 140)} → ${f.status} (${f.verdict}) ${shown(f.body, 200)}`,
      ...(f.serverError === undefined ? [] : [`    server: ${shown(f.serverError, 300)}`]),
    ].join('\n'),
  );
  return `${distinct.size} distinct failures in ${failures.length} of ${sent} requests:\n${lines.join('\n')}`;
}

beforeAll(async () => {
  t = await createLifecycleApp({ maxActiveOrders: 100 });
  // The stack of a 500 is only in the (silent) log: keep the last error to show it in the report.
  t.app.addHook('onError', (_request, _reply, error, done) => {
    lastServerError = error;
    done();
  });
  headerOf = {
    customer: { authorization: `tma ${initDataFor(CUSTOMER)}` },
    operator: { authorization: `tma ${initDataFor(OPERATOR)}` },
    nobody: {},
  };
  for (const s of SLOTS) await fillSlot(s);
  strangerOrder = await insertOrder(t.database.db, STRANGER, {
    ...rowFor(slot('p2pBuy', 'WAITING_REQUISITES'), t.clock.now()),
    id: rng.uuid(),
  });
  for (const kind of Object.keys(ORDER_KINDS) as OrderKind[]) {
    rateOf[kind] = await rateFor(t, CUSTOMER, ORDER_KINDS[kind]);
  }
  const current = await send(t, 'GET', OPERATOR_PATHS.rates, OPERATOR);
  const table = current.json<{
    rates: { fiat: string; crypto: string; baseRate: number }[];
    spreads: { paymentMethod: string; operation: string; spreadBp: number }[];
  }>();
  rates.RUB_USDT = table.rates.find((r) => r.fiat === 'RUB' && r.crypto === 'USDT')?.baseRate ?? 0;
  rates.P2P_BUY_BP =
    table.spreads.find((s) => s.paymentMethod === 'P2P' && s.operation === 'BUY')?.spreadBp ?? 0;
  expect(rates.RUB_USDT).toBeGreaterThan(0);

  // A receipt an operator can download, on an order of its own.
  receiptOrder = await insertOrder(t.database.db, CUSTOMER, {
    ...rowFor(slot('p2pBuy', 'PAYMENT_PENDING'), t.clock.now()),
    id: rng.uuid(),
  });
  expectMoved(
    await send(
      t,
      'POST',
      API_PATHS.receipt(receiptOrder),
      CUSTOMER,
      receiptBody(pngFile('fuzz'), 'image/png', 'чек.png'),
    ),
    'RECEIPT_UPLOADED',
  );
  const detail = await send(t, 'GET', OPERATOR_PATHS.order(receiptOrder), OPERATOR);
  receiptId = detail.json<{ receipts: { id: string }[] }>().receipts[0]?.id ?? '';
  expect(receiptId).not.toBe('');

  buildProbes();
  buildOddRequests();
  buildIdentityProbes();
  buildOversized();
}, 60_000);

afterAll(async () => {
  await t.close();
});

describe('a fuzz of every endpoint', () => {
  it('no input to any endpoint reaches a 500 or an error body without a code', async () => {
    const started = performance.now();
    // The rates and spreads go last: a change that gets through moves every quote.
    const last = (p: Probe) => p.route.startsWith('PUT ');
    for (const probe of [...probes.filter((p) => !last(p)), ...probes.filter(last)]) {
      await fire(probe);
    }
    const count = (v: Verdict) => failures.filter((f) => f.verdict === v).length;
    console.log(
      `fuzz (${t.config.database.kind}, FUZZ_SEED=${SEED}): ${sent} requests fuzzed, ` +
        `${count('5xx')} 5xx, ${count('not JSON')} non-JSON error bodies, ` +
        `${count('no code')} error bodies without a code, ` +
        `in ${Math.round((performance.now() - started) / 100) / 10} s`,
    );
    expect(failures.length, report()).toBe(0);
  }, 120_000);

  it('leaves the server answering GET /api/health with 200', async () => {
    const res = await t.app.inject({ method: 'GET', url: API_PATHS.health });
    expect(res.statusCode, res.body).toBe(200);
  });
});
