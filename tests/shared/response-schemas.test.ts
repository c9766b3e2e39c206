/**
 * The answers' schemas (src/shared/schemas/responses.ts, operator-responses.ts) are the one source
 * of the answer types and of the OpenAPI document: each converts to JSON Schema without a loss,
 * each takes answers as the server sends them (typed as the exported types, so a sample that no
 * longer compiles or no longer parses shows the two apart) and refuses a malformed one.
 */
import { toJsonSchema, type ConversionConfig } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type {
  ApiErrorBody,
  BankRequisitesResponse,
  CitiesResponse,
  HealthResponse,
  HistoryResponse,
  OrderActionResponse,
  OrderDetails,
} from '../../src/shared/api';
import type {
  IncomingDeposit,
  MeResponse,
  OperatorIncomingResponse,
  OperatorOrderResponse,
  OperatorOrderRow,
  OperatorQueueResponse,
  OperatorRatesResponse,
} from '../../src/shared/operator-api';
import { OPERATOR_RESPONSE_SCHEMAS } from '../../src/shared/schemas/operator-responses';
import { RESPONSE_SCHEMAS } from '../../src/shared/schemas/responses';
import {
  FIXTURE_BANK,
  FIXTURE_CARD,
  FIXTURE_NOW,
  FIXTURE_SELL,
  iso,
  makeOrder,
  orderSummary,
} from '../helpers/order-fixtures';

const ALL_SCHEMAS = { ...RESPONSE_SCHEMAS, ...OPERATOR_RESPONSE_SCHEMAS };
const S = ALL_SCHEMAS;

/**
 * Whether `schema` takes `answer` exactly: it parses, and nothing of it is dropped on the way (a
 * field the server sends that the schema does not describe would be stripped by `v.object`).
 */
function describesExactly(schema: v.GenericSchema, answer: unknown): boolean {
  const result = v.safeParse(schema, answer);
  if (!result.success) return false;
  expect(result.output).toStrictEqual(answer);
  return true;
}

describe('every answer converts to JSON Schema', () => {
  const configs: Record<string, ConversionConfig> = {
    'JSON Schema draft 7': { errorMode: 'throw' },
    'OpenAPI 3.0': { errorMode: 'throw', target: 'openapi-3.0' },
  };
  for (const [target, config] of Object.entries(configs)) {
    it.each(Object.entries(ALL_SCHEMAS))(`%s, as ${target}`, (_name, schema) => {
      const json = toJsonSchema(schema, config);
      expect(json.type ?? json.oneOf ?? json.anyOf).toBeDefined();
    });
  }

  it('says a status is one of order-status.ts and a moment is a date-time', () => {
    const json = toJsonSchema(S.OrderDetails, { errorMode: 'throw' });
    const properties = json.properties as Record<string, Record<string, unknown>>;
    expect(properties.status?.enum).toContain('WAITING_REQUISITES');
    expect(properties.serverTime).toEqual({ type: 'string', format: 'date-time' });
    expect(json.required).toContain('chainCheck');
  });

  it('makes no field required that the type leaves optional', () => {
    const json = toJsonSchema(S.ApiErrorBody, { errorMode: 'throw' });
    expect(json.required).toEqual(['error', 'code']);
  });
});

describe("the customer's answers", () => {
  it('takes the health and the small answers', () => {
    const health: HealthResponse = { ok: true, time: iso(FIXTURE_NOW) };
    expect(describesExactly(S.HealthResponse, health)).toBe(true);
    expect(
      describesExactly(S.AppConfigResponse, { demo: true, supportUrl: 'https://t.me/x' }),
    ).toBe(true);
    expect(describesExactly(S.DemoSessionResponse, { initData: 'query_id=1&hash=ab' })).toBe(true);
    expect(describesExactly(S.RateResponse, { rate: 97.13 })).toBe(true);
    expect(describesExactly(S.CreateOrderResponse, { success: true, orderId: 'ord-1' })).toBe(true);
    const action: OrderActionResponse = { success: true, status: 'PAYMENT_PENDING' };
    expect(describesExactly(S.OrderActionResponse, action)).toBe(true);
  });

  it("takes the app's tests' orders: a P2P buy, a bank buy, a sell with its chain check", () => {
    const buy = makeOrder({ status: 'REQUISITES_READY', requisites: FIXTURE_CARD });
    const bank = makeOrder({ paymentMethod: 'BANK_ACCOUNT', requisites: FIXTURE_BANK });
    const sell = makeOrder({
      ...FIXTURE_SELL,
      status: 'TX_PENDING',
      txHash: 'a'.repeat(64),
      chainCheck: { state: 'seen', confirmations: 3, required: 19 },
    });
    for (const order of [buy, bank, sell, makeOrder()]) {
      expect(describesExactly(S.OrderDetails, order)).toBe(true);
    }
  });

  it('takes an office buy with its reservation, and a rejected and a cancelled order', () => {
    const office: OrderDetails = makeOrder({
      paymentMethod: 'OFFICE',
      currency: 'USD',
      status: 'OFFICE_READY',
      cityId: 'moscow',
      reservedUntil: iso(FIXTURE_NOW + 3_600_000),
      officeInstructions: 'Floor 12, show the code.',
      reservation: {
        orderId: 'ord-1',
        reservationCode: 'K7Q2',
        reservedUntil: iso(FIXTURE_NOW + 3_600_000),
        office: {
          id: 'moscow-city-tower',
          addressRu: 'Пресненская наб., 12',
          addressEn: '12 Presnenskaya Emb.',
          workingHoursRu: 'Пн–Пт 10:00–20:00',
          workingHoursEn: 'Mon–Fri 10:00–20:00',
          phone: '+7 495 662-41-80',
          mapLink: 'https://yandex.ru/maps/?text=x',
        },
        city: { nameRu: 'Москва', nameEn: 'Moscow' },
      },
      receipts: [{ id: 'r-1', fileName: 'receipt.pdf', uploadedAt: iso(FIXTURE_NOW) }],
    });
    const rejected = makeOrder({
      status: 'REJECTED',
      rejectReason: 'The payment came from a third party.',
      rejectReasonCode: 'third_party_payment',
    });
    const cancelled = makeOrder({ status: 'CANCELLED', cancelReason: 'expired' });
    for (const order of [office, rejected, cancelled]) {
      expect(describesExactly(S.OrderDetails, order)).toBe(true);
    }
  });

  it('takes the lists, the cities and both answers of the bank requisites', () => {
    const history: HistoryResponse = {
      orders: [orderSummary(), orderSummary({ id: 'ord-2', type: 'SELL', network: 'TRC20' })],
      hasMore: true,
    };
    expect(describesExactly(S.HistoryResponse, history)).toBe(true);
    expect(describesExactly(S.ActiveOrdersResponse, { orders: [orderSummary()] })).toBe(true);
    const cities: CitiesResponse = {
      data: [
        {
          id: 'saint-petersburg',
          nameRu: 'Санкт-Петербург',
          nameEn: 'Saint Petersburg',
          countryCode: 'RU',
        },
      ],
    };
    expect(describesExactly(S.CitiesResponse, cities)).toBe(true);
    const configured: BankRequisitesResponse = {
      requisitesNotConfigured: false,
      requisites: FIXTURE_BANK,
    };
    const notYet: BankRequisitesResponse = { requisitesNotConfigured: true, requisites: null };
    expect(describesExactly(S.BankRequisitesResponse, configured)).toBe(true);
    expect(describesExactly(S.BankRequisitesResponse, notYet)).toBe(true);
  });

  it('takes error answers with the details of their codes', () => {
    const errors: ApiErrorBody[] = [
      { error: 'The rate changed', code: 'RATE_CHANGED', rate: 97.5 },
      { error: 'Check the fields', code: 'VALIDATION_FAILED', fields: ['cardHolder', 'phone'] },
      { error: 'Underpaid', code: 'TX_UNDERPAID', coin: 'USDT', shortfall: '0.5' },
      { error: 'Wait', code: 'RATE_LIMITED', retryAfter: 30 },
      { error: 'Too low', code: 'AMOUNT_TOO_LOW', min: 3000, max: 500000, currency: 'RUB' },
      { error: 'Moved on', code: 'INVALID_STATUS', status: 'COMPLETED' },
    ];
    for (const body of errors) expect(describesExactly(S.ApiErrorBody, body)).toBe(true);
  });

  it('refuses what the server never sends', () => {
    const order = makeOrder();
    const malformed: [v.GenericSchema, unknown][] = [
      [S.OrderDetails, { ...order, status: 'DONE' }],
      [S.OrderDetails, { ...order, serverTime: undefined }],
      [S.OrderDetails, { ...order, createdAt: 'yesterday' }],
      [S.OrderDetails, { ...order, network: 'SOLANA' }],
      [S.OrderDetails, { ...order, cancelReason: 'bored' }],
      [S.OrderDetails, { ...order, chainCheck: { state: 'lost', confirmations: 0, required: 12 } }],
      [
        S.OrderDetails,
        { ...order, chainCheck: { state: 'seen', confirmations: 1.5, required: 12 } },
      ],
      [S.OrderDetails, { ...order, requisites: { cardNumber: '2202200000000001' } }],
      [S.HistoryResponse, { orders: [orderSummary()] }],
      [S.BankRequisitesResponse, { requisitesNotConfigured: true, requisites: FIXTURE_BANK }],
      [S.BankRequisitesResponse, { requisitesNotConfigured: false, requisites: null }],
      [S.ApiErrorBody, { error: 'No', code: 'NOT_A_CODE' }],
      [S.ApiErrorBody, { error: 'No', code: 'RATE_CHANGED', rate: '97.5' }],
      [S.HealthResponse, { ok: false, time: iso(FIXTURE_NOW) }],
    ];
    for (const [schema, answer] of malformed)
      expect(v.safeParse(schema, answer).success).toBe(false);
  });

  it('notices a field the schema does not describe', () => {
    expect(() => describesExactly(S.OrderDetails, { ...makeOrder(), secret: 1 })).toThrow();
  });
});

describe("the operators' answers", () => {
  const row: OperatorOrderRow = {
    ...orderSummary({ status: 'RECEIPT_UPLOADED' }),
    customer: { telegramId: 200_000_001, firstName: 'Иван', lastName: null, username: 'ivan' },
    deadline: iso(FIXTURE_NOW + 600_000),
    flags: ['paidLate', 'reusedReceipt'],
    appealOpenedAt: null,
  };
  const deposit: IncomingDeposit = {
    network: 'TRC20',
    txHash: 'b'.repeat(64),
    coin: 'USDT',
    amount: '100.000123',
    sender: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
    blockNumber: 71_000_000,
    seenAt: iso(FIXTURE_NOW),
    candidates: 0,
  };

  it('takes who the caller is, the queue, a search and the unmatched deposits', () => {
    const me: MeResponse = { telegramId: 300_000_001, firstName: 'Оператор', operator: true };
    expect(describesExactly(S.MeResponse, me)).toBe(true);
    const queue: OperatorQueueResponse = {
      groups: [
        { group: 'receipts', count: 7, orders: [row] },
        { group: 'flagged', count: 0, orders: [] },
      ],
      serverTime: iso(FIXTURE_NOW),
    };
    expect(describesExactly(S.OperatorQueueResponse, queue)).toBe(true);
    expect(describesExactly(S.OperatorOrdersResponse, { orders: [row], hasMore: false })).toBe(
      true,
    );
    const incoming: OperatorIncomingResponse = { deposits: [deposit], hasMore: true };
    expect(describesExactly(S.OperatorIncomingResponse, incoming)).toBe(true);
  });

  it('takes an order as the console opens it, with its trail, receipts and messages', () => {
    const view: OperatorOrderResponse = {
      order: makeOrder({ ...FIXTURE_SELL, status: 'WAITING_CRYPTO' }),
      customer: {
        ...row.customer,
        languageCode: 'ru',
        firstSeenAt: iso(FIXTURE_NOW - 86_400_000),
        orderCount: 3,
      },
      deadline: null,
      endedAt: null,
      flags: [],
      payoutCard: { cardNumber: '2200700123456781', cardHolder: 'IVAN PETROV', bankName: 'T-Bank' },
      events: [
        {
          from: null,
          to: 'WAITING_CRYPTO',
          actor: 'customer',
          actorId: 200_000_001,
          reason: null,
          at: iso(FIXTURE_NOW),
          messageId: null,
        },
        {
          from: 'TX_PENDING',
          to: 'TX_CONFIRMED',
          actor: 'chain',
          actorId: null,
          reason: 'tx',
          at: iso(FIXTURE_NOW),
          messageId: null,
        },
      ],
      receipts: [
        {
          id: 'r-1',
          fileName: 'receipt.jpg',
          mimeType: 'image/jpeg',
          sizeBytes: 120_000,
          sha256: 'c'.repeat(64),
          uploadedAt: iso(FIXTURE_NOW),
          alsoOn: ['ord-9'],
        },
      ],
      offices: [],
      defaultBankAccount: null,
      messages: [
        {
          id: 12,
          to: 'customer',
          kind: 'deposit_requested',
          status: 'skipped',
          text: 'Send 100.000123 USDT',
          buttons: [{ text: 'Open', url: 'https://t.me/bot?startapp=order_ord-1' }],
          attempts: 0,
          lastError: 'demo mode',
          createdAt: iso(FIXTURE_NOW),
          sentAt: null,
        },
        {
          id: 13,
          to: 'operators',
          kind: 'unmatched_deposit',
          status: 'sent',
          text: 'A transfer no sell could take',
          buttons: [],
          attempts: 1,
          lastError: null,
          createdAt: iso(FIXTURE_NOW),
          sentAt: iso(FIXTURE_NOW),
        },
      ],
      chainChecked: true,
      incoming: [deposit],
    };
    expect(describesExactly(S.OperatorOrderResponse, view)).toBe(true);
    expect(
      v.safeParse(S.OperatorOrderResponse, {
        ...view,
        events: [{ ...view.events[0], actor: 'robot' }],
      }).success,
    ).toBe(false);
    expect(
      v.safeParse(S.OperatorOrderResponse, {
        ...view,
        messages: [{ ...view.messages[0], kind: 'hello' }],
      }).success,
    ).toBe(false);
  });

  it('takes the rates and spreads, and refuses a spread of another method', () => {
    const rates: OperatorRatesResponse = {
      rates: [
        {
          fiat: 'RUB',
          crypto: 'USDT',
          baseRate: 95.4,
          updatedAt: iso(FIXTURE_NOW),
          updatedBy: null,
        },
      ],
      spreads: [
        {
          paymentMethod: 'P2P',
          operation: 'BUY',
          spreadBp: 150,
          updatedAt: iso(FIXTURE_NOW),
          updatedBy: 300_000_001,
        },
      ],
      market: {
        sources: [
          {
            name: 'exmo',
            readAt: iso(FIXTURE_NOW),
            nextReadAt: iso(FIXTURE_NOW + 30_000),
            fault: { at: iso(FIXTURE_NOW), kind: 'timeout', message: 'no answer in 5 s' },
          },
        ],
        pairs: [
          {
            crypto: 'USDT',
            fiat: 'RUB',
            base: null,
            unquoted: 'jump_held',
            median: 84.1,
            accepted: 81.2,
            held: { rate: 84.1, from: 81.2, since: iso(FIXTURE_NOW) },
            fixed: { rate: 82, until: iso(FIXTURE_NOW + 3_600_000), by: 300_000_001 },
            candidates: [
              { source: 'exmo', rate: 84.1, at: iso(FIXTURE_NOW), crossed: false, state: 'fresh' },
            ],
            quotes: [{ paymentMethod: 'P2P', operation: 'BUY', rate: 83.23 }],
          },
        ],
        jumpBp: 300,
      },
      changes: [
        {
          at: iso(FIXTURE_NOW),
          operatorId: null,
          kind: 'jump_agreed',
          subject: 'USDT/RUB',
          before: 81.2,
          after: 84.1,
          until: null,
        },
      ],
    };
    expect(describesExactly(S.OperatorRatesResponse, rates)).toBe(true);
    const wrong = { ...rates, spreads: [{ ...rates.spreads[0], paymentMethod: 'CARD' }] };
    expect(v.safeParse(S.OperatorRatesResponse, wrong).success).toBe(false);
  });
});
