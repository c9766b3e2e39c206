/**
 * The server's metrics through prom-client: request durations, the jobs' runs, each module's own
 * counters and database gauges (read at each scrape), and the process's. One registry per app,
 * never the global one, so apps built side by side (tests) keep their own counts. What each
 * metric means: docs/operating.md.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Database } from '../db/schema';
import type { JobMonitor } from '../jobs/periodic';

export interface Reading {
  readonly labels?: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface DatabaseGauge {
  readonly name: string;
  readonly help: string;
  readonly labelNames?: readonly string[];
  /** A label set it no longer answers is dropped, never left stale. */
  readonly read: (db: Kysely<Database>, now: number) => Promise<number | readonly Reading[]>;
}

export interface CounterDeclaration<T extends string> {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly T[];
}

export interface Metrics {
  scrape(): Promise<string>;
  readonly contentType: string;
  /** By route pattern, never the raw URL. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  readonly jobs: JobMonitor;
  gauges(table: readonly DatabaseGauge[]): void;
  counter<T extends string>(declaration: CounterDeclaration<T>): Counter<T>;
}

/** The status poll answers in about a millisecond, a receipt's upload may take seconds. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Created once: its event loop and GC monitors never stop, so one per app would leak in tests. */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

interface MetricsContext {
  readonly db: Kysely<Database>;
  readonly now: () => number;
  readonly log: FastifyBaseLogger;
}

/** If the database fails, the gauge is left empty (no stale value) and the scrape goes on. */
function databaseGauge(registry: Registry, context: MetricsContext, row: DatabaseGauge): void {
  const gauge: Gauge = new Gauge({
    name: row.name,
    help: row.help,
    labelNames: row.labelNames ?? [],
    registers: [registry],
    collect: async () => {
      try {
        const read = await row.read(context.db, context.now());
        gauge.reset();
        if (typeof read === 'number') gauge.set(read);
        else for (const { labels, value } of read) gauge.set(labels ?? {}, value);
      } catch (error) {
        gauge.reset();
        context.log.warn({ err: error, metric: row.name }, 'metrics: the database failed');
      }
    },
  });
}

function jobMonitor(registry: Registry, now: () => number): JobMonitor {
  const registers = [registry];
  const failures = new Counter({
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
  return {
    runSucceeded(job) {
      lastSuccess.set({ job }, now() / 1000);
      // A job's counters start at 0 from its first run, so that a rate over them is defined.
      failures.inc({ job }, 0);
      itemFailures.inc({ job }, 0);
    },
    runFailed(job) {
      failures.inc({ job });
      itemFailures.inc({ job }, 0);
    },
    itemFailed(job) {
      itemFailures.inc({ job });
    },
  };
}

export function createMetrics(context: MetricsContext): Metrics {
  const registry = new Registry();
  const requests = new Histogram({
    name: 'exchange_http_request_duration_seconds',
    help: 'Time to answer a request, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  return {
    scrape: () => Registry.merge([registry, processMetrics()]).metrics(),
    contentType: registry.contentType,
    observeRequest(method, route, status, seconds) {
      requests.observe({ method, route, status }, seconds);
    },
    jobs: jobMonitor(registry, context.now),
    gauges(table) {
      for (const row of table) databaseGauge(registry, context, row);
    },
    counter: (declaration) => new Counter({ ...declaration, registers: [registry] }),
  };
}
