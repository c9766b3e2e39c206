/**
 * What the server tells its operators about itself (issue 22, item 7), in the Prometheus format
 * through prom-client: each request's duration by route, the outbox's backlog and what became of
 * its sends, the jobs' runs, failures and lag, the bot's errors, and the process's own metrics
 * (memory, CPU, event loop delay). One registry per app, never prom-client's global one, so that
 * apps built side by side (tests) keep their own counts; the process's metrics are the process's,
 * collected once whatever the apps it builds. What a scrape reads from the database
 * (the backlog, the sweeper's lag) is read when Prometheus asks (a gauge's `collect`), one cheap
 * statement each. The endpoint and who may read it: platform/metrics/metrics-plugin.ts; what each metric means:
 * README.md, "Metrics".
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { BotMonitor } from '../../notifications/bot';
import type { ChainCallEvent, NetworkFigure } from '../../chain/readers/chain-reader';
import type { Database } from '../db/schema';
import type { JobMonitor } from '../jobs/periodic';
import { chainCheckLag, chainLookupBacklog } from '../../chain/chain-checker';
import { chainDustCount, chainScanLag } from '../../chain/chain-scan';
import { sweepLag } from '../../orders/sweeper';
import { outboxBacklog, outboxOldestDue, type RecipientKind } from '../../notifications/backlog';
import type { SendOutcome } from '../../notifications/telegram-sender';

export interface Metrics {
  /** The app's metrics and the process's, in the text format (of `contentType`). */
  scrape(): Promise<string>;
  readonly contentType: string;
  /** One request answered: its route pattern (never the raw URL), its status and duration. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** What became of a message the outbox sent to Telegram. */
  outboxSent(recipient: RecipientKind, outcome: SendOutcome['kind']): void;
  readonly jobs: JobMonitor;
  readonly bot: BotMonitor;
  /** One call a chain reader made to a node, and how it ended. */
  chainCalled(event: ChainCallEvent): void;
}

/**
 * The request durations' buckets, in seconds: the status poll answers in about a millisecond,
 * a receipt's upload may take seconds.
 */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * prom-client's metrics of the process (CPU, memory, heap, event loop delay, garbage collection),
 * in a registry of their own created once: their monitors of the event loop and the garbage
 * collector are never stopped, so a registry of them per app would leave one more running for
 * every app a process builds (a test file builds several).
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export function createMetrics(context: {
  readonly db: Kysely<Database>;
  /** The app's clock, in epoch milliseconds: the lags and the last runs are told by it. */
  readonly now: () => number;
  readonly log: FastifyBaseLogger;
}): Metrics {
  const registry = new Registry();
  const registers = [registry];

  /**
   * A gauge `read` sets from the database at each scrape; if the database fails, the gauge is
   * left empty (no stale value) and the rest of the scrape goes on.
   */
  const databaseGauge = <T extends string>(
    config: { readonly name: string; readonly help: string; readonly labelNames?: readonly T[] },
    read: (gauge: Gauge<T>, now: number) => Promise<void>,
  ): Gauge<T> => {
    const gauge: Gauge<T> = new Gauge<T>({
      ...config,
      registers,
      collect: async () => {
        try {
          await read(gauge, context.now());
        } catch (error) {
          gauge.reset();
          context.log.warn({ err: error, metric: config.name }, 'metrics: the database failed');
        }
      },
    });
    return gauge;
  };

  const requests = new Histogram({
    name: 'exchange_http_request_duration_seconds',
    help: 'Time to answer a request, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers,
  });

  databaseGauge(
    {
      name: 'exchange_outbox_backlog',
      help: 'Messages waiting in the outbox (pending, or being sent), by kind of chat',
      labelNames: ['recipient'],
    },
    async (gauge) => {
      const counts = await outboxBacklog(context.db);
      for (const recipient of ['customer', 'operators'] as const) {
        gauge.set({ recipient }, counts[recipient]);
      }
    },
  );
  databaseGauge(
    {
      name: 'exchange_outbox_oldest_due_seconds',
      help: 'How long the most overdue message in the outbox has been due (0: none is)',
    },
    async (gauge, now) => {
      gauge.set((await outboxOldestDue(context.db, now)) / 1000);
    },
  );
  const sends = new Counter({
    name: 'exchange_outbox_sends_total',
    help: "The outbox's calls to Telegram, by kind of chat and outcome",
    labelNames: ['recipient', 'outcome'] as const,
    registers,
  });

  databaseGauge(
    {
      name: 'exchange_sweeper_lag_seconds',
      help: 'How long the most overdue order has waited for the sweeper, by task (0: none has)',
      labelNames: ['task'],
    },
    async (gauge, now) => {
      const behind = await sweepLag(context.db, now);
      gauge.set({ task: 'expire' }, behind.expire / 1000);
      gauge.set({ task: 'flag_waiting' }, behind.flagWaiting / 1000);
      gauge.set({ task: 'flag_paid_late' }, behind.flagPaidLate / 1000);
      gauge.set({ task: 'remind' }, behind.remind / 1000);
    },
  );
  databaseGauge(
    {
      name: 'exchange_chain_check_lag_seconds',
      help: 'How long the most overdue deposit check has waited for the chain checker (0: none has)',
    },
    async (gauge, now) => {
      gauge.set((await chainCheckLag(context.db, now)) / 1000);
    },
  );
  // The chain's figures per network, each read from the database at a scrape.
  const perNetwork = (
    name: string,
    help: string,
    read: (db: Kysely<Database>, now: number) => Promise<readonly NetworkFigure[]>,
  ) =>
    databaseGauge({ name, help, labelNames: ['network'] as const }, async (gauge, now) => {
      gauge.reset();
      for (const { network, value } of await read(context.db, now)) gauge.set({ network }, value);
    });
  perNetwork(
    'exchange_chain_lookup_backlog',
    'Hash lookups due and not made yet (the per-minute ration works through them), by network',
    chainLookupBacklog,
  );
  perNetwork(
    'exchange_chain_dust_transfers',
    'Transfers to a deposit address under CHAIN_DUST_BELOW kept off the operators list, by network',
    chainDustCount,
  );
  perNetwork(
    'exchange_chain_scan_lag_blocks',
    'Final blocks the deposit address scan has still to read, by EVM network (0: caught up)',
    chainScanLag,
  );
  const jobFailures = new Counter({
    name: 'exchange_job_failures_total',
    help: "Background jobs' runs that failed (logged as 'job failed'), by job",
    labelNames: ['job'] as const,
    registers,
  });
  const itemFailures = new Counter({
    name: 'exchange_job_item_failures_total',
    help: 'Items a job set aside because they failed while its run went on, by job',
    labelNames: ['job'] as const,
    registers,
  });
  const lastSuccess = new Gauge({
    name: 'exchange_job_last_success_timestamp_seconds',
    help: "When each background job's last run ended well, in Unix seconds",
    labelNames: ['job'] as const,
    registers,
  });

  const botErrors = new Counter({
    name: 'exchange_bot_errors_total',
    help: "The bot's failures: an update's handler (update), or taking updates at all (start)",
    labelNames: ['kind'] as const,
    registers,
  });
  for (const kind of ['update', 'start']) botErrors.inc({ kind }, 0);
  const botCalls = new Counter({
    name: 'exchange_bot_api_failures_total',
    help: "The bot's own Bot API calls that failed, by method and kind of failure",
    labelNames: ['method', 'kind'] as const,
    registers,
  });

  const chainCalls = new Counter({
    name: 'exchange_chain_calls_total',
    help: 'Calls the chain readers made to the nodes, by network, method and outcome (ok or a fault)',
    labelNames: ['network', 'method', 'outcome'] as const,
    registers,
  });

  return {
    chainCalled(event) {
      chainCalls.inc({ network: event.network, method: event.method, outcome: event.outcome });
    },
    scrape: () => Registry.merge([registry, processMetrics()]).metrics(),
    contentType: registry.contentType,
    observeRequest(method, route, status, seconds) {
      requests.observe({ method, route, status }, seconds);
    },
    outboxSent(recipient, outcome) {
      sends.inc({ recipient, outcome });
    },
    jobs: {
      runSucceeded(job) {
        lastSuccess.set({ job }, context.now() / 1000);
        // A job's counters start at 0 from its first run, so that a rate over them is defined.
        jobFailures.inc({ job }, 0);
        itemFailures.inc({ job }, 0);
      },
      runFailed(job) {
        jobFailures.inc({ job });
        itemFailures.inc({ job }, 0);
      },
      itemFailed(job) {
        itemFailures.inc({ job });
      },
    },
    bot: {
      updateFailed() {
        botErrors.inc({ kind: 'update' });
      },
      startFailed() {
        botErrors.inc({ kind: 'start' });
      },
      callFailed(method, kind) {
        botCalls.inc({ method, kind });
      },
    },
  };
}
