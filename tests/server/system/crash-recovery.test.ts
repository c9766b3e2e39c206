/**
 * Crash recovery: nothing acknowledged is ever lost. The real server process (the production
 * bundle, dist-server/main.js, started with package.json's `start` command as `npm start` starts
 * it: tests/helpers/server-process.ts; demo mode) is killed with SIGKILL at a random moment while many customers
 * and an operator write at once, with at least MIN_IN_FLIGHT writes in flight; it is restarted on
 * the same database and receipts directory, the clients carry on, it is killed again, and after
 * the last restart every write that was answered 2xx before a kill is looked for:
 * - an order whose create answered 201 exists, with the fields it was created with;
 * - a status change answered 200 is the status found, or one the transition table leads to from it;
 * - a receipt answered 200 is listed to its customer and to operators and downloads byte for byte.
 * Writes in flight at a kill fail with a connection error: not acknowledged, so not looked for,
 * but nothing may be half there (an order listed is readable, a receipt listed downloads whole).
 * Runs on SQLite, and on a fresh PostgreSQL database when the suite runs with TEST_DB=postgres.
 */
import { createHash, randomInt } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type {
  OperatorOrderResponse,
  OperatorOrdersResponse,
} from '../../../src/shared/operator-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_PATHS,
  type CreateOrderResponse,
  type OrderActionResponse,
  type OrderDetails,
  type RateResponse,
} from '../../../src/shared/api';
import {
  TRANSITIONS,
  findTransition,
  isFinalStatus,
  type OrderStatus,
} from '../../../src/shared/order-status';
import { authHeader, initDataFor } from '../../helpers/identity';
import {
  BANK_REQUISITES,
  CARD_REQUISITES,
  HTTP_ACTIONS,
  OFFICE_INSTRUCTIONS,
  OPERATOR,
  OPERATOR_PATHS,
  ORDER_KINDS,
  STORED_BANK_REQUISITES,
  STORED_CARD_REQUISITES,
  createPayload,
  pdfFile,
  pngFile,
  receiptBody,
  txHashFor,
  type HttpAction,
  type OrderKind,
  type TestUser,
} from '../../helpers/lifecycle';
import {
  ServerProcess,
  freePort,
  serverDatabase,
  type ServerDatabase,
} from '../../helpers/server-process';
import { testDatabaseKind } from '../../helpers/test-database';

/** Kills per run (the rule asks for at least two). */
const KILLS = 3;
/** Clients writing at once: enough that MIN_IN_FLIGHT writes are in flight at any moment. */
const CLIENTS = 32;
/** Writes in flight (sent, not yet answered) when the server is killed, at least. */
const MIN_IN_FLIGHT = 16;
/** Acknowledged writes between a (re)start and its kill: a random number in this range. */
const KILL_AFTER = { min: 200, max: 600 } as const;
/** A phase that has not reached its kill by then has stalled. */
const PHASE_TIMEOUT_MS = 40_000;
/**
 * The server allows a customer 5 active orders, and 10 creates, 20 receipts and 60 other actions
 * a minute. A customer here makes at most 3 orders in the whole run, each with at most 3 receipt
 * uploads and at most 2 customer actions plus one retry per kill, all counted when sent: far
 * under every limit even if the server keeps its windows across restarts (in the database).
 */
const ORDERS_PER_CUSTOMER = 3;
const MAX_RECEIPTS_PER_ORDER = 3;
/** Parallel reads when checking what survived. */
const VERIFY_PARALLEL = 16;

const KIND_WEIGHTS: readonly (readonly [OrderKind, number])[] = [
  ['p2pBuy', 55],
  ['bankBuy', 10],
  ['sell', 20],
  ['officeBuy', 15],
];
const REJECT_REASON = 'Перевод пришёл от третьего лица: верните его отправителю';

// --- What the transition table allows after a status ---

/** Every status an order can be in after `status`: itself and all the table leads to from it. */
const LATER_STATUSES: ReadonlyMap<OrderStatus, ReadonlySet<OrderStatus>> = (() => {
  const map = new Map<OrderStatus, Set<OrderStatus>>();
  const statuses = new Set<OrderStatus>(TRANSITIONS.flatMap((t) => [...t.from, t.to]));
  for (const start of statuses) {
    const seen = new Set<OrderStatus>([start]);
    const queue = [start];
    for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
      for (const t of TRANSITIONS) {
        if (t.from.includes(next) && !seen.has(t.to)) {
          seen.add(t.to);
          queue.push(t.to);
        }
      }
    }
    map.set(start, seen);
  }
  return map;
})();

const isSameOrLater = (found: OrderStatus, acknowledged: OrderStatus): boolean =>
  LATER_STATUSES.get(acknowledged)?.has(found) ?? found === acknowledged;

// --- What the clients sent and what was acknowledged ---

interface SentReceipt {
  readonly fileName: string;
  readonly sha256: string;
  readonly size: number;
  /** Answered 200. */
  acknowledged: boolean;
}

interface TrackedOrder {
  readonly id: string;
  readonly kind: OrderKind;
  readonly customer: TestUser;
  /** The create payload, as sent and answered 201. */
  readonly payload: Readonly<Record<string, unknown>>;
  /** Status changes answered 200, in the order they were answered. */
  readonly acks: { readonly action: HttpAction; readonly status: OrderStatus }[];
  /** Every receipt sent to the order, answered or not. */
  readonly receipts: SentReceipt[];
  /** Data an acknowledged change stored with the order. */
  readonly stored: { requisites?: unknown; txHash?: string; outgoingTxHash?: string };
}

/** How one journey ends; the clients pick one per order. */
interface Plan {
  readonly ending: 'finish' | 'cancel' | 'reject' | 'leave';
  /** A buyer taps 'I have paid' before the receipt (or sends the receipt straight away). */
  readonly saysPaid: boolean;
  readonly receipts: number;
}

interface KillRecord {
  /** Writes acknowledged since the start of the process that was killed. */
  readonly acknowledgedBefore: number;
  readonly inFlight: number;
  readonly atMs: number;
}

interface Loss {
  readonly rule: 'create' | 'status' | 'receipt';
  readonly orderId: string;
  readonly acknowledged: string;
  readonly found: string;
}

/** The operator's view of one order and a page of the operator's list (src/shared/operator-api.ts). */
type OperatorOrderView = OperatorOrderResponse;
type OperatorOrderList = OperatorOrdersResponse;

/** What was found of one order after the last restart. */
interface FoundOrder {
  readonly statusCode: number;
  readonly details: OrderDetails | undefined;
  readonly operatorCode: number;
  readonly view: OperatorOrderView | undefined;
  /** Receipt id → the download's answer code and sha256. */
  readonly downloads: ReadonlyMap<string, { readonly code: number; readonly sha256: string }>;
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

// --- HTTP to the child process ---

interface Answer {
  readonly code: number;
  readonly body: Buffer;
}

const headerCache = new Map<number, Readonly<Record<string, string>>>();
function headersOf(user: TestUser): Readonly<Record<string, string>> {
  let headers = headerCache.get(user.id);
  if (headers === undefined) {
    headers = { ...authHeader(initDataFor(user)), 'accept-language': 'ru' };
    headerCache.set(user.id, headers);
  }
  return headers;
}

/** One HTTP call; rejects on any connection error, or when the answer is cut off. */
function request(
  agent: http.Agent,
  baseUrl: string,
  method: 'GET' | 'POST',
  urlPath: string,
  user: TestUser,
  body?: unknown,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = http.request(
      `${baseUrl}${urlPath}`,
      {
        method,
        agent,
        timeout: 20_000,
        headers: {
          ...headersOf(user),
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': payload.length }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ code: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on('error', reject);
        res.on('close', () => {
          if (!res.complete) reject(new Error('the answer was cut off'));
        });
      },
    );
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('no answer within 20 s')));
    req.end(payload);
  });
}

/** The JSON of an answer; each caller says what shape the route answers with. */
const parse = (answer: Answer): unknown => JSON.parse(answer.body.toString('utf8'));
const describeAnswer = (answer: Answer): string =>
  `${answer.code} ${answer.body.toString('utf8').slice(0, 300)}`;

/** An unexpected answer, with the server's last log lines when it was a server fault. */
function explain(run: CrashRun, answer: Answer): string {
  const tail = answer.code >= 500 ? `\n${run.server?.outputTail(5) ?? ''}` : '';
  return `${describeAnswer(answer)}${tail}`;
}

/** Thrown to a client once the run is over. */
class Stopped extends Error {}

// --- The run ---

interface RunFigures {
  readonly database: 'sqlite' | 'postgres';
  readonly kills: KillRecord[];
  customers: number;
  readonly acknowledged: { creates: number; statusChanges: number; receipts: number };
  /** How long each start took until GET /api/health answered, in ms. */
  readonly starts: number[];
  /** The command line of each server process started. */
  readonly commandLines: string[];
  verifyMs: number;
  totalMs: number;
}

class CrashRun {
  server: ServerProcess | undefined;
  generation = 0;
  agent = new http.Agent({ keepAlive: true });
  /** Every agent of the run, one per server process, destroyed at the end. */
  readonly agents: http.Agent[] = [this.agent];
  up = false;
  stopping = false;
  readonly killed = new Set<number>();
  inFlightWrites = 0;
  acknowledgedSinceStart = 0;
  readonly orders: TrackedOrder[] = [];
  readonly customers = new Map<number, TestUser>();
  /** Answers no step expected: a refusal, a 5xx, a wrong status, a failure while up. */
  readonly problems: string[] = [];
  /** Acknowledged writes found missing while the clients carried on after a restart. */
  readonly lossesOnResume: Loss[] = [];
  readonly figures: RunFigures;
  private readonly startedAt = Date.now();
  private waiters: (() => void)[] = [];
  private trigger: { after: number; fire: (kill: KillRecord) => void } | undefined;
  private receiptSeq = 0;
  private customerSeq = 0;

  constructor(
    private readonly port: number,
    private readonly env: Readonly<Record<string, string>>,
  ) {
    this.figures = {
      database: testDatabaseKind(),
      kills: [],
      customers: 0,
      acknowledged: { creates: 0, statusChanges: 0, receipts: 0 },
      starts: [],
      commandLines: [],
      verifyMs: 0,
      totalMs: 0,
    };
  }

  get acknowledgedWrites(): number {
    const a = this.figures.acknowledged;
    return a.creates + a.statusChanges + a.receipts;
  }

  /** Starts (or restarts) the server on the same port, database and receipts directory. */
  async start(): Promise<void> {
    const began = Date.now();
    this.server = await ServerProcess.start({ port: this.port, env: this.env });
    this.figures.starts.push(Date.now() - began);
    this.figures.commandLines.push(this.server.commandLine);
    if (this.generation > 0) {
      // Connections to the killed process are dead: the new one gets connections of its own.
      this.agent = new http.Agent({ keepAlive: true });
      this.agents.push(this.agent);
    }
    this.generation += 1;
    this.acknowledgedSinceStart = 0;
    this.up = true;
    this.wakeWaiters();
  }

  /** Arms the next kill: after `after` acknowledged writes, at a moment with enough in flight. */
  nextKill(after: number, last: boolean): Promise<KillRecord> {
    return new Promise((resolve) => {
      this.trigger = {
        after,
        fire: (kill) => {
          if (last) this.stopping = true;
          resolve(kill);
        },
      };
    });
  }

  /** Ends the run: every client stops at its next call, including those waiting for a start. */
  stop(): void {
    this.stopping = true;
    this.wakeWaiters();
  }

  private wakeWaiters(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  private waitUp(): Promise<void> {
    if (this.up) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Kills the server now when the armed kill is due; whether it did. */
  private maybeKill(): boolean {
    const trigger = this.trigger;
    if (trigger === undefined || !this.up || this.server === undefined) return false;
    if (this.acknowledgedSinceStart < trigger.after || this.inFlightWrites < MIN_IN_FLIGHT) {
      return false;
    }
    this.trigger = undefined;
    this.up = false;
    this.killed.add(this.generation);
    this.server.killNow();
    const kill: KillRecord = {
      acknowledgedBefore: this.acknowledgedSinceStart,
      inFlight: this.inFlightWrites,
      atMs: Date.now() - this.startedAt,
    };
    this.figures.kills.push(kill);
    trigger.fire(kill);
    return true;
  }

  /**
   * A client's call: waits while the server is down; undefined when it could not be answered
   * because the server was killed (the write is then not acknowledged); Stopped once the run is
   * over. A connection failure while the server was up is a problem of its own.
   */
  async call(
    method: 'GET' | 'POST',
    urlPath: string,
    user: TestUser,
    body?: unknown,
  ): Promise<Answer | undefined> {
    if (!this.stopping) await this.waitUp();
    if (this.stopping) throw new Stopped();
    const generation = this.generation;
    const write = method === 'POST';
    if (write && this.maybeKill()) return undefined;
    if (write) this.inFlightWrites += 1;
    try {
      return await request(this.agent, this.serverUrl(), method, urlPath, user, body);
    } catch (error) {
      if (this.killed.has(generation)) return undefined;
      this.problems.push(
        `${method} ${urlPath} failed while the server was up: ${String(error)}\n` +
          (this.server?.outputTail(10) ?? ''),
      );
      return undefined;
    } finally {
      if (write) this.inFlightWrites -= 1;
    }
  }

  /** A call after the clients have stopped, to see what survived; rejects on failure. */
  read(urlPath: string, user: TestUser): Promise<Answer> {
    return request(this.agent, this.serverUrl(), 'GET', urlPath, user);
  }

  acknowledge(kind: keyof RunFigures['acknowledged']): void {
    this.figures.acknowledged[kind] += 1;
    this.acknowledgedSinceStart += 1;
  }

  newCustomer(): TestUser {
    this.customerSeq += 1;
    const russian = this.customerSeq % 2 === 0;
    const customer: TestUser = {
      id: 810_000_000 + this.customerSeq,
      first_name: russian ? `Клиент ${this.customerSeq}` : `Customer ${this.customerSeq}`,
      language_code: russian ? 'ru' : 'en',
    };
    this.customers.set(customer.id, customer);
    this.figures.customers = this.customers.size;
    return customer;
  }

  nextReceiptName(extension: string): string {
    this.receiptSeq += 1;
    return `payment-${this.receiptSeq}.${extension}`;
  }

  finish(): void {
    this.figures.totalMs = Date.now() - this.startedAt;
  }

  private serverUrl(): string {
    if (this.server === undefined) throw new Error('the server was never started');
    return this.server.url;
  }
}

// --- The clients: customers' journeys, with the operator's steps in them ---

function pickKind(): OrderKind {
  const total = KIND_WEIGHTS.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = randomInt(total);
  for (const [kind, weight] of KIND_WEIGHTS) {
    if (roll < weight) return kind;
    roll -= weight;
  }
  return 'p2pBuy';
}

function pickPlan(): Plan {
  const roll = randomInt(100);
  const ending = roll < 55 ? 'finish' : roll < 70 ? 'cancel' : roll < 80 ? 'reject' : 'leave';
  return { ending, saysPaid: randomInt(100) < 70, receipts: 1 + randomInt(MAX_RECEIPTS_PER_ORDER) };
}

interface Step {
  readonly action: HttpAction;
  readonly body: unknown;
  readonly receipt?: SentReceipt;
  readonly stores?: TrackedOrder['stored'];
}

/** The next write of an order's journey from its current status, or undefined at its end. */
function nextStep(run: CrashRun, order: TrackedOrder, status: OrderStatus, plan: Plan) {
  const step = (action: HttpAction, body: unknown = {}, stores?: Step['stores']): Step => ({
    action,
    body,
    ...(stores === undefined ? {} : { stores }),
  });
  const receiptStep = (): Step => {
    const pdf = order.kind === 'bankBuy';
    const bytes = pdf ? pdfFile() : pngFile();
    const fileName = run.nextReceiptName(pdf ? 'pdf' : 'png');
    const receipt: SentReceipt = {
      fileName,
      sha256: sha256(bytes),
      size: bytes.length,
      acknowledged: false,
    };
    order.receipts.push(receipt);
    return {
      action: 'uploadReceipt',
      body: receiptBody(bytes, pdf ? 'application/pdf' : 'image/png', fileName),
      receipt,
    };
  };
  const hash = (): string => txHashFor(ORDER_KINDS[order.kind].network);
  switch (status) {
    case 'WAITING_REQUISITES':
      return order.kind === 'bankBuy'
        ? step('giveRequisites', BANK_REQUISITES, { requisites: STORED_BANK_REQUISITES })
        : step('giveRequisites', CARD_REQUISITES, { requisites: STORED_CARD_REQUISITES });
    case 'REQUISITES_READY':
      if (plan.ending === 'cancel') return step('cancel');
      if (plan.ending === 'reject') return step('reject', { reason: REJECT_REASON });
      return plan.saysPaid ? step('confirmPayment') : receiptStep();
    case 'PAYMENT_PENDING':
      return receiptStep();
    case 'RECEIPT_UPLOADED':
      if (order.receipts.length < plan.receipts) return receiptStep();
      return plan.ending === 'finish' ? step('operatorConfirmPayment') : undefined;
    case 'PAYMENT_CONFIRMED': {
      const outgoingTxHash = hash();
      return step('complete', { outgoingTxHash }, { outgoingTxHash });
    }
    case 'WAITING_CRYPTO': {
      if (plan.ending === 'cancel') return step('cancel');
      const txHash = hash();
      return step('submitTxHash', { txHash }, { txHash });
    }
    case 'TX_PENDING':
      if (plan.ending === 'reject') return step('reject', { reason: REJECT_REASON });
      return plan.ending === 'leave' ? undefined : step('confirmIncomingTx');
    case 'TX_CONFIRMED':
      return step('complete');
    case 'OFFICE_PENDING':
      if (plan.ending === 'reject') return step('reject', { reason: REJECT_REASON });
      return step('giveOfficeInstructions', { instructions: OFFICE_INSTRUCTIONS });
    case 'OFFICE_READY':
      if (plan.ending === 'cancel') return step('cancel');
      return plan.ending === 'leave' ? undefined : step('confirmOfficeReceipt');
    default:
      return undefined;
  }
}

/** One order from the rate to the end of its plan; every 2xx is recorded as acknowledged. */
async function journey(run: CrashRun, customer: TestUser): Promise<void> {
  const kind = pickKind();
  const plan = pickPlan();
  const spec = ORDER_KINDS[kind];
  const query = new URLSearchParams({
    amount: String(spec.total),
    currency: spec.currency,
    operation: spec.type,
    cryptoCurrency: spec.cryptoCurrency,
    paymentMethod: spec.paymentMethod,
  });
  const rate = await run.call('GET', `${API_PATHS.rate}?${query.toString()}`, customer);
  if (rate === undefined) return;
  if (rate.code !== 200) {
    run.problems.push(`the rate for ${kind} answered ${explain(run, rate)}`);
    return;
  }
  const payload = createPayload(kind, (parse(rate) as RateResponse).rate) as Record<
    string,
    unknown
  >;
  const created = await run.call('POST', API_PATHS.createOrder, customer, payload);
  if (created === undefined) return;
  if (created.code !== 201) {
    run.problems.push(`a ${kind} create answered ${explain(run, created)}`);
    return;
  }
  const order: TrackedOrder = {
    id: (parse(created) as CreateOrderResponse).orderId,
    kind,
    customer,
    payload,
    acks: [],
    receipts: [],
    stored: {},
  };
  run.orders.push(order);
  run.acknowledge('creates');

  let status = await resume(run, order);
  while (status !== undefined && !isFinalStatus(status)) {
    const step = nextStep(run, order, status, plan);
    if (step === undefined) return;
    const call = HTTP_ACTIONS[step.action];
    const user = call.actor === 'customer' ? customer : OPERATOR;
    const expected = findTransition(step.action, call.actor)?.to;
    const answer = await run.call('POST', call.path(order.id), user, step.body);
    if (answer === undefined) {
      // Not acknowledged: whether it happened is the server's to say once it is back.
      status = await resume(run, order);
      continue;
    }
    const answered =
      answer.code === 200 ? (parse(answer) as OrderActionResponse).status : undefined;
    if (answered === undefined || answered !== expected) {
      run.problems.push(
        `${step.action} on ${kind} ${order.id} in ${status} answered ${explain(run, answer)}` +
          ` (expected 200 ${expected ?? '?'})`,
      );
      return;
    }
    order.acks.push({ action: step.action, status: answered });
    Object.assign(order.stored, step.stores);
    if (step.receipt === undefined) {
      run.acknowledge('statusChanges');
    } else {
      step.receipt.acknowledged = true;
      run.acknowledge('receipts');
    }
    status = answered;
  }
}

/**
 * The order's status as its customer reads it (after a write that was not answered): the
 * journey goes on from there, unless something acknowledged is missing already.
 */
async function resume(run: CrashRun, order: TrackedOrder): Promise<OrderStatus | undefined> {
  // A read cut off by a kill is asked again once the server is back (a failure while it was up
  // is a problem already recorded: give up on the order then).
  for (let attempt = 0; attempt <= KILLS; attempt++) {
    const answer = await run.call('GET', API_PATHS.orderStatus(order.id), order.customer);
    if (answer === undefined) continue;
    if (answer.code !== 200) {
      run.lossesOnResume.push({
        rule: 'create',
        orderId: order.id,
        acknowledged: 'create answered 201',
        found: `status answered ${describeAnswer(answer)}`,
      });
      return undefined;
    }
    const details = parse(answer) as OrderDetails;
    const losses = lossesOf(order, { details });
    if (losses.length > 0) {
      run.lossesOnResume.push(...losses);
      return undefined;
    }
    return details.status;
  }
  return undefined;
}

async function client(run: CrashRun): Promise<void> {
  try {
    while (!run.stopping) {
      const customer = run.newCustomer();
      // A client stops inside a journey: the next call after the last kill throws Stopped.
      for (let n = 0; n < ORDERS_PER_CUSTOMER; n++) {
        await journey(run, customer);
      }
    }
  } catch (error) {
    if (error instanceof Stopped) return;
    run.problems.push(`a client failed: ${error instanceof Error ? error.stack : String(error)}`);
  }
}

// --- Checking what survived ---

/**
 * Acknowledged writes of `order` that are not in what was found (the status answer, and when
 * given the operator's view and the downloads).
 */
function lossesOf(
  order: TrackedOrder,
  found: { details: OrderDetails; view?: OperatorOrderView; downloads?: FoundOrder['downloads'] },
): Loss[] {
  const losses: Loss[] = [];
  const { details, view, downloads } = found;
  const loss = (rule: Loss['rule'], acknowledged: string, what: string) =>
    losses.push({ rule, orderId: order.id, acknowledged, found: what });

  const sent = order.payload;
  const fields = ['type', 'paymentMethod', 'currency', 'cryptoCurrency', 'network', 'rate'];
  // A sell is given its exact amount to send: above the amount asked, less than a coin more.
  const sell = sent['type'] === 'SELL';
  if (!sell) fields.push('amount');
  const asked = Number(sent['amount']);
  if (sell && !(details.amount > asked && details.amount < asked + 1)) {
    loss('create', `amount ${String(sent['amount'])} (asked)`, String(details.amount));
  }
  if (sent['type'] === 'BUY') fields.push('walletAddress');
  if (sent['paymentMethod'] === 'OFFICE') fields.push('cityId');
  const record = details as unknown as Readonly<Record<string, unknown>>;
  for (const field of fields) {
    if (record[field] !== sent[field]) {
      loss('create', `${field} ${JSON.stringify(sent[field])}`, JSON.stringify(record[field]));
    }
  }
  // The server recomputes the total from amount × rate; the app's may differ by rounding only,
  // and a sell's by its exact amount's tag (less than one coin at the rate).
  const tolerance = sell ? Math.ceil(details.rate) + 1 : 1;
  if (Math.abs(details.totalRub - Number(sent['totalRub'])) > tolerance) {
    loss('create', `totalRub ${String(sent['totalRub'])}`, String(details.totalRub));
  }
  if (view !== undefined && sent['type'] === 'SELL') {
    const card = view.payoutCard;
    if (card?.cardNumber !== sent['cardNumber'] || card?.bankName !== sent['bankName']) {
      loss('create', `payout card ${String(sent['cardNumber'])}`, JSON.stringify(card));
    }
  }

  const last = order.acks.at(-1);
  if (last !== undefined && !isSameOrLater(details.status, last.status)) {
    loss('status', `${last.action} → ${last.status}`, details.status);
  }
  const { requisites, txHash, outgoingTxHash } = order.stored;
  if (requisites !== undefined && !isDeepStrictEqual(details.requisites, requisites)) {
    loss('status', `requisites ${JSON.stringify(requisites)}`, JSON.stringify(details.requisites));
  }
  if (txHash !== undefined && details.txHash !== txHash) {
    loss('status', `txHash ${txHash}`, String(details.txHash));
  }
  if (outgoingTxHash !== undefined && details.outgoingTxHash !== outgoingTxHash) {
    loss('status', `outgoingTxHash ${outgoingTxHash}`, String(details.outgoingTxHash));
  }

  for (const receipt of order.receipts.filter((r) => r.acknowledged)) {
    const what = `receipt ${receipt.fileName} (sha256 ${receipt.sha256.slice(0, 12)}…)`;
    const listed = details.receipts.filter((r) => r.fileName === receipt.fileName);
    if (listed.length !== 1) {
      loss('receipt', what, `listed ${listed.length} times to the customer`);
      continue;
    }
    if (view === undefined) continue;
    const seen = view.receipts.find((r) => r.id === listed[0]?.id);
    if (seen?.sha256 !== receipt.sha256 || seen.sizeBytes !== receipt.size) {
      loss('receipt', what, `operator's view: ${JSON.stringify(seen ?? null)}`);
      continue;
    }
    const download = downloads?.get(seen.id);
    if (download?.code !== 200 || download.sha256 !== receipt.sha256) {
      loss('receipt', what, `download: ${JSON.stringify(download ?? null)}`);
    }
  }
  return losses;
}

async function eachLimited<T>(
  items: readonly T[],
  parallel: number,
  work: (item: T) => Promise<void>,
) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, items.length) }, async () => {
      for (let i = next++; i < items.length; i = next++) await work(items[i] as T);
    }),
  );
}

/** Everything of one order, as its customer and the operator see it, receipts downloaded. */
async function findOrder(run: CrashRun, orderId: string, customer: TestUser): Promise<FoundOrder> {
  const status = await run.read(API_PATHS.orderStatus(orderId), customer);
  const operator = await run.read(OPERATOR_PATHS.order(orderId), OPERATOR);
  const view = operator.code === 200 ? (parse(operator) as OperatorOrderView) : undefined;
  const downloads = new Map<string, { code: number; sha256: string }>();
  for (const receipt of view?.receipts ?? []) {
    const file = await run.read(OPERATOR_PATHS.receipt(orderId, receipt.id), OPERATOR);
    downloads.set(receipt.id, { code: file.code, sha256: sha256(file.body) });
  }
  return {
    statusCode: status.code,
    details: status.code === 200 ? (parse(status) as OrderDetails) : undefined,
    operatorCode: operator.code,
    view,
    downloads,
  };
}

interface Verdict {
  readonly losses: readonly Loss[];
  /** Orders or receipts listed but not readable, or not whole. */
  readonly halfThere: readonly string[];
  readonly listedOrders: number;
  readonly listedReceipts: number;
}

async function verify(run: CrashRun): Promise<Verdict> {
  const listed: { id: string; userId: number }[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await run.read(`${OPERATOR_PATHS.orders}?limit=100&offset=${offset}`, OPERATOR);
    if (page.code !== 200) throw new Error(`the operator's list answered ${describeAnswer(page)}`);
    const body = parse(page) as OperatorOrderList;
    listed.push(...body.orders.map((o) => ({ id: o.id, userId: o.customer.telegramId })));
    if (!body.hasMore) break;
  }

  const halfThere: string[] = [];
  const found = new Map<string, FoundOrder>();
  const sentNames = new Map<string, string>(
    run.orders.flatMap((o) => o.receipts.map((r) => [r.fileName, r.sha256] as const)),
  );
  let listedReceipts = 0;
  await eachLimited(listed, VERIFY_PARALLEL, async ({ id, userId }) => {
    const customer = run.customers.get(userId);
    if (customer === undefined) {
      halfThere.push(`order ${id} belongs to ${userId}, a customer nobody was`);
      return;
    }
    const order = await findOrder(run, id, customer);
    found.set(id, order);
    const { details, view } = order;
    if (details === undefined || view === undefined) {
      halfThere.push(
        `order ${id} is listed; status ${order.statusCode}, view ${order.operatorCode}`,
      );
      return;
    }
    if (details.status !== view.order.status) {
      halfThere.push(
        `order ${id} is ${details.status} to its customer, ${view.order.status} to staff`,
      );
    }
    const customerIds = details.receipts.map((r) => r.id).sort();
    const operatorIds = view.receipts.map((r) => r.id).sort();
    if (JSON.stringify(customerIds) !== JSON.stringify(operatorIds)) {
      halfThere.push(`order ${id}: receipts ${customerIds.join()} vs ${operatorIds.join()}`);
    }
    for (const receipt of view.receipts) {
      listedReceipts += 1;
      const download = order.downloads.get(receipt.id);
      if (
        download?.code !== 200 ||
        download.sha256 !== receipt.sha256 ||
        sentNames.get(receipt.fileName) !== receipt.sha256
      ) {
        halfThere.push(
          `order ${id}: receipt ${receipt.fileName} listed with sha256 ${receipt.sha256}, ` +
            `sent with ${sentNames.get(receipt.fileName) ?? 'nothing'}, ` +
            `downloads ${JSON.stringify(download ?? null)}`,
        );
      }
    }
  });

  const losses: Loss[] = [...run.lossesOnResume];
  await eachLimited(run.orders, VERIFY_PARALLEL, async (order) => {
    const seen = found.get(order.id) ?? (await findOrder(run, order.id, order.customer));
    if (seen.details === undefined) {
      losses.push({
        rule: 'create',
        orderId: order.id,
        acknowledged: 'create answered 201',
        found: `status ${seen.statusCode}, operator's view ${seen.operatorCode}`,
      });
      return;
    }
    if (!found.has(order.id)) halfThere.push(`order ${order.id} is readable but not listed`);
    losses.push(
      ...lossesOf(order, {
        details: seen.details,
        ...(seen.view === undefined ? {} : { view: seen.view }),
        downloads: seen.downloads,
      }),
    );
  });
  return { losses, halfThere, listedOrders: listed.length, listedReceipts };
}

// --- The test ---

const dirs: string[] = [];
let database: ServerDatabase | undefined;
let run: CrashRun | undefined;
let verdict: Verdict | undefined;

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'exchange-crash-'));
  dirs.push(dir);
  const staticDir = path.join(dir, 'static');
  fs.mkdirSync(staticDir);
  database = await serverDatabase(dir);
  const current = new CrashRun(await freePort(), {
    ...database.env,
    RECEIPTS_DIR: path.join(dir, 'receipts'),
    OPERATOR_IDS: String(OPERATOR.id),
    // The test plays the operator itself: the demo's autopilot would move orders on between the
    // customer's read and the staff's read of the check (TX_PENDING to one, TX_CONFIRMED to the
    // other, as CI once saw).
    DEMO_AUTOPILOT: 'off',
    // An empty directory: the API alone, whether or not the app was built.
    STATIC_DIR: staticDir,
    LOG_LEVEL: 'warn',
  });
  run = current;
  await current.start();
  const clients = Array.from({ length: CLIENTS }, () => client(current));
  try {
    for (let k = 0; k < KILLS; k++) {
      const server = current.server;
      if (server === undefined) throw new Error('no server');
      const kill = current.nextKill(randomInt(KILL_AFTER.min, KILL_AFTER.max + 1), k === KILLS - 1);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        kill,
        server.exited.then((exit) => {
          throw new Error(
            `the server ended by itself (${JSON.stringify(exit)}):\n${server.outputTail()}`,
          );
        }),
        new Promise((_, reject) => {
          timer = setTimeout(() => {
            reject(
              new Error(
                `no kill within ${PHASE_TIMEOUT_MS} ms: ${current.acknowledgedSinceStart} writes ` +
                  `acknowledged, ${current.inFlightWrites} in flight`,
              ),
            );
          }, PHASE_TIMEOUT_MS);
        }),
      ]).finally(() => clearTimeout(timer));
      await server.exited;
      await current.start();
    }
  } finally {
    current.stop();
    await Promise.all(clients);
  }
  const began = Date.now();
  verdict = await verify(current);
  current.figures.verifyMs = Date.now() - began;
  current.finish();

  const f = current.figures;
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  console.log(
    `crash recovery on ${f.database === 'sqlite' ? 'SQLite' : 'PostgreSQL'}: ` +
      `${f.kills.length} kills (SIGKILL at ${f.kills.map((k) => seconds(k.atMs)).join('/')} s, ` +
      `after ${f.kills.map((k) => k.acknowledgedBefore).join('/')} acknowledged writes, with ` +
      `${f.kills.map((k) => k.inFlight).join('/')} in flight); ` +
      `${current.acknowledgedWrites} writes acknowledged (${f.acknowledged.creates} creates, ` +
      `${f.acknowledged.statusChanges} status changes, ${f.acknowledged.receipts} receipts) ` +
      `by ${f.customers} customers; lost ${verdict.losses.length}; ` +
      `${verdict.listedOrders} orders and ${verdict.listedReceipts} receipts checked; ` +
      `${seconds(f.totalMs)} s (server starts ${f.starts.map(seconds).join('/')} s, ` +
      `check ${seconds(f.verifyMs)} s)`,
  );
}, 150_000);

afterAll(async () => {
  if (run !== undefined) {
    run.stop();
    await run.server?.kill();
    for (const agent of run.agents) agent.destroy();
  }
  await database?.drop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
}, 30_000);

const lossesBy = (rule: Loss['rule']) => (verdict?.losses ?? []).filter((l) => l.rule === rule);

describe('crash recovery: nothing acknowledged is ever lost (SIGKILL under load, restart)', () => {
  it(`the server is killed at least twice, each time with ${MIN_IN_FLIGHT} or more writes in flight`, () => {
    const kills = run?.figures.kills ?? [];
    expect(kills.length).toBeGreaterThanOrEqual(2);
    for (const kill of kills) expect(kill.inFlight).toBeGreaterThanOrEqual(MIN_IN_FLIGHT);
  });

  it("the process killed is the production bundle, started with package.json's start command as npm start starts it", () => {
    const pkg = JSON.parse(
      fs.readFileSync(path.resolve(import.meta.dirname, '../../../package.json'), 'utf8'),
    ) as { scripts: Record<string, string> };
    const start = pkg.scripts['start'] ?? '(none)';
    expect(start).toMatch(/ dist-server\/main\.js$/);
    expect(run?.figures.commandLines).toEqual(Array.from({ length: KILLS + 1 }, () => start));
  });

  it('every write the clients made was answered as its step expects, or cut off by a kill', () => {
    expect(run?.problems ?? ['the run did not happen']).toEqual([]);
  });

  it('every order whose create answered 201 is there after the restarts, with the fields it was created with', () => {
    expect(run?.figures.acknowledged.creates).toBeGreaterThan(0);
    expect(lossesBy('create')).toEqual([]);
  });

  it('every status change answered 200 is the status found after the restarts, or a later one', () => {
    expect(run?.figures.acknowledged.statusChanges).toBeGreaterThan(0);
    expect(lossesBy('status')).toEqual([]);
  });

  it('every receipt answered 200 is listed to its customer and to staff and downloads byte for byte', () => {
    expect(run?.figures.acknowledged.receipts).toBeGreaterThan(0);
    expect(lossesBy('receipt')).toEqual([]);
  });

  it('nothing is half there: every order listed is readable and every receipt listed downloads whole', () => {
    expect(verdict?.listedOrders).toBeGreaterThan(0);
    expect(verdict?.halfThere ?? ['the run did not happen']).toEqual([]);
  });
});
