/**
 * The demo's autopilot operator: in demo mode, where nobody plays the staff side, it
 * does what an operator would, a few seconds after the customer's last step, through the same
 * service functions as the console (so the same checks, transitions, audit trail and messages):
 * card or bank requisites, office instructions with a reservation code, the payment confirmed
 * once a receipt is uploaded, the seller's transaction confirmed once its hash is sent (unless
 * its network is read from a node: then the chain checker confirms it), and the
 * order completed with a well-formed outgoing hash for its network (unless its network is read
 * from a node: a payout there is checked on the chain, and only a person can send a real one). It leaves alone every order
 * a person has taken: opened in the console, or acted on. Every action names the status it saw,
 * so an operator acting at the same moment wins and the autopilot's action is refused.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ExpressionBuilder } from 'kysely';
import type { BankRequisites } from '../../shared/api';
import { AUTOPILOT_OPERATOR_ID } from '../../shared/operator-api';
import { NETWORK_IDS, isEvmNetwork, type NetworkId } from '../../shared/networks';
import type { OrderStatus } from '../../shared/order-status';
import type { ServerContext } from '../platform/context';
import { ORDER_COLUMNS, type Database, type OrderRow } from '../platform/db/schema';
import { AppError } from '../platform/errors';
import { completeOrder } from './verbs/complete';
import { confirmPaymentByOperator } from './verbs/confirm-payment';
import { confirmIncomingTx } from './verbs/confirm-tx';
import { giveOfficeInstructions } from './verbs/give-office-instructions';
import { giveRequisites } from './verbs/give-requisites';
import { writeMessage } from '../chat';
import { inBatches } from '../platform/jobs/batches';
import { periodicJob, type JobMonitor, type PeriodicJob } from '../platform/jobs/periodic';
import { flagOrder } from '../orders';

/** How long after the order's last change the autopilot answers: long enough to be seen. */
export const AUTOPILOT_DELAY_MS = 3_000;
const AUTOPILOT_INTERVAL_MS = 1_000;
const AUTOPILOT_BATCH = 20;
/** The job's name in its log lines and metrics. */
const AUTOPILOT_JOB = 'demo autopilot';

/** A demo card (it passes the Luhn check; no bank issued it). */
const DEMO_CARD = {
  bankName: 'Т-Банк',
  cardNumber: '2200700123456781',
  cardHolder: 'IVAN PETROV',
  comment: 'Демо · Demo',
} as const;

/** A demo bank account, when no default account is configured. */
const DEMO_BANK_ACCOUNT: BankRequisites = {
  recipientName: 'ООО «Демо Обмен»',
  accountNumber: '40702810938000123456',
  bankName: 'ПАО Сбербанк',
  bik: '044525225',
  correspondentAccount: '30101810400000000225',
  inn: '7707083893',
  beneficiaryName: 'ООО «Демо Обмен»',
  beneficiaryAccount: '40702810938000123456',
};

/** The autopilot's answer to a customer's first message in an order's chat. */
const CHAT_ANSWER =
  'Демо: это автоответ обменника. В настоящем сервисе здесь отвечает оператор.\n' +
  'Demo: this is the exchange answering automatically. In the real service an operator answers here.';

const OFFICE_INSTRUCTIONS =
  'Демо: возьмите паспорт и назовите код брони на ресепшене.\n' +
  'Demo: bring your passport and give the reservation code at the reception.';

/** A transaction hash in the shape of the network, as a wallet would return it. */
export function demoTxHash(network: NetworkId): string {
  const hex = randomBytes(32).toString('hex');
  return isEvmNetwork(network) ? `0x${hex}` : hex;
}

/** The statuses the autopilot moves on, and what it does in each. */
const ACTIONS: Partial<
  Record<OrderStatus, (ctx: ServerContext, order: OrderRow) => Promise<unknown>>
> = {
  WAITING_REQUISITES: (ctx, order) =>
    giveRequisites(ctx, AUTOPILOT_OPERATOR_ID, order.id, {
      expectedStatus: order.status,
      ...(order.payment_method === 'BANK_ACCOUNT'
        ? (ctx.config.bankAccount ?? DEMO_BANK_ACCOUNT)
        : DEMO_CARD),
    }),
  OFFICE_PENDING: (ctx, order) =>
    giveOfficeInstructions(ctx, AUTOPILOT_OPERATOR_ID, order.id, {
      expectedStatus: order.status,
      instructions: OFFICE_INSTRUCTIONS,
    }),
  RECEIPT_UPLOADED: (ctx, order) =>
    confirmPaymentByOperator(ctx, AUTOPILOT_OPERATOR_ID, order.id, {
      expectedStatus: order.status,
    }),
  TX_PENDING: (ctx, order) =>
    confirmIncomingTx(ctx, AUTOPILOT_OPERATOR_ID, order.id, { expectedStatus: order.status }),
  PAYMENT_CONFIRMED: (ctx, order) =>
    completeOrder(ctx, AUTOPILOT_OPERATOR_ID, order.id, {
      expectedStatus: order.status,
      outgoingTxHash: demoTxHash(order.network),
    }),
  TX_CONFIRMED: (ctx, order) =>
    completeOrder(ctx, AUTOPILOT_OPERATOR_ID, order.id, { expectedStatus: order.status }),
};

const STATUSES = Object.keys(ACTIONS) as OrderStatus[];

/**
 * An order no person has made theirs: no operator but the autopilot acted on it, and it has no
 * appeal (an appeal is the person's trying the console, their own senior: a decision is never
 * the autopilot's).
 */
function notAPersons(w: ExpressionBuilder<Database, 'orders'>) {
  return w.not(
    w.or([
      w.exists(
        w.selectFrom('appeals').select('appeals.id').whereRef('appeals.order_id', '=', 'orders.id'),
      ),
      w.exists(
        w
          .selectFrom('order_events')
          .select('order_events.id')
          .whereRef('order_events.order_id', '=', 'orders.id')
          .where('order_events.actor', '=', 'operator')
          .where('order_events.actor_id', '!=', AUTOPILOT_OPERATOR_ID),
      ),
    ]),
  );
}

/**
 * One pass: each order due for the staff side and untaken gets its next step, AUTOPILOT_BATCH
 * orders a batch (each action a transaction of its own), until none is due or `signal` aborts.
 * An order whose action throws is logged, flagged for operators and skipped (in `failing`, kept
 * by the job from one pass to the next), so it never holds up the orders behind it.
 */
export async function runAutopilot(
  ctx: ServerContext,
  log: FastifyBaseLogger,
  options: {
    readonly signal?: AbortSignal;
    readonly failing?: Set<string>;
    /** Told of each order whose action threw (the server's metrics). */
    readonly monitor?: JobMonitor | undefined;
  } = {},
): Promise<number> {
  const failing = options.failing ?? new Set<string>();
  // Orders this pass tried without moving them: never claimed twice in a pass.
  const skipped = new Set(failing);
  let acted = 0;
  await inBatches({
    size: AUTOPILOT_BATCH,
    signal: options.signal,
    batch: async (budget) => {
      const now = ctx.now();
      let query = ctx.db
        .selectFrom('orders')
        .select(ORDER_COLUMNS)
        .where('status', 'in', STATUSES)
        .where('updated_at', '<=', now - AUTOPILOT_DELAY_MS)
        .where('taken_by', 'is', null)
        .where(notAPersons);
      if (skipped.size > 0) query = query.where('id', 'not in', [...skipped]);
      // A seller's transaction on a network read from a node is the chain checker's to confirm:
      // a demo against a local chain shows the real check, not a pretend operator. A buy's
      // payout there must be a real transfer, which the completion checks on the chain: the
      // autopilot cannot send one, so a person does.
      const checked = NETWORK_IDS.filter((network) => ctx.chain[network] !== undefined);
      if (checked.length > 0) {
        query = query.where((w) =>
          w.or([
            w('status', 'not in', ['TX_PENDING', 'PAYMENT_CONFIRMED']),
            w('network', 'not in', checked),
          ]),
        );
      }
      const due = await query.orderBy('updated_at').limit(AUTOPILOT_BATCH).execute();
      const processed: OrderRow[] = [];
      for (const order of due) {
        if (processed.length > 0 && budget.spent()) break;
        processed.push(order);
        try {
          await ACTIONS[order.status]?.(ctx, order);
          acted++;
        } catch (error) {
          skipped.add(order.id);
          // Someone moved the order first: theirs stands.
          if (error instanceof AppError) continue;
          log.error({ err: error, orderId: order.id }, 'autopilot could not act: flagged');
          options.monitor?.itemFailed(AUTOPILOT_JOB);
          failing.add(order.id);
          await flagOrder(ctx.db, order.id);
        }
      }
      return processed;
    },
  });
  acted += await answerFirstMessages(ctx);
  if (acted > 0) log.info({ orders: acted }, 'autopilot acted');
  return acted;
}

/**
 * Answers, once, the chat of each order whose customer wrote and that nobody has answered, a
 * few seconds after the customer's first message, unless a person has taken the order. Its
 * message is an operator's like any other: the customer is told by the bot, with the code.
 */
async function answerFirstMessages(ctx: ServerContext): Promise<number> {
  const unanswered = await ctx.db
    .selectFrom('order_messages as asked')
    .innerJoin('orders', 'orders.id', 'asked.order_id')
    .select('asked.order_id')
    .distinct()
    .where('asked.author', '=', 'customer')
    .where('asked.created_at', '<=', ctx.now() - AUTOPILOT_DELAY_MS)
    .where('orders.taken_by', 'is', null)
    .where((w) =>
      w.not(
        w.exists(
          w
            .selectFrom('order_messages as answered')
            .select('answered.id')
            .whereRef('answered.order_id', '=', 'asked.order_id')
            .where('answered.author', '=', 'operator'),
        ),
      ),
    )
    .limit(AUTOPILOT_BATCH)
    .execute();
  for (const { order_id } of unanswered) {
    await writeMessage(ctx, { side: 'operator', telegramId: AUTOPILOT_OPERATOR_ID }, order_id, {
      text: CHAT_ANSWER,
      fileName: '',
    });
  }
  return unanswered.length;
}

export function createAutopilot(
  ctx: ServerContext,
  log: FastifyBaseLogger,
  monitor?: JobMonitor,
): PeriodicJob {
  const failing = new Set<string>();
  return periodicJob({
    name: AUTOPILOT_JOB,
    intervalMs: AUTOPILOT_INTERVAL_MS,
    log,
    monitor,
    run: async ({ signal }) => {
      await runAutopilot(ctx, log, { signal, failing, monitor });
    },
  });
}
