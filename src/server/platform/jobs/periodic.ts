/**
 * A job the server runs in its own process every so often: the first
 * run at start-up, the next one an interval after the previous one ended, so runs never overlap;
 * a failed run is logged and the next one tries again. `stop` aborts the run's signal, so a job
 * working through a backlog claims no further batch (platform/jobs/batches.ts), and waits for the batch in
 * hand.
 */
import type { FastifyBaseLogger } from 'fastify';

export interface PeriodicJob {
  start(): void;
  stop(): Promise<void>;
}

/**
 * What a job tells the server's metrics (src/server/platform/metrics/metrics.ts), by the job's name as its log
 * lines give it: how each run ended, and each item a run set aside because it failed (the run
 * itself went on).
 */
export interface JobMonitor {
  runSucceeded(job: string): void;
  runFailed(job: string): void;
  itemFailed(job: string): void;
}

/** What a module makes each of its jobs with: the clock, the log and the metrics to tell. */
export interface JobOptions {
  /** The app's clock, in epoch milliseconds. */
  readonly now: () => number;
  readonly log: FastifyBaseLogger;
  readonly monitor?: JobMonitor | undefined;
}

/** What one run is given: the job's log and metrics, and `signal`, aborted when the server stops. */
export interface JobRun {
  /** Aborted when the server stops: claim nothing more then. */
  readonly signal: AbortSignal;
  readonly log: FastifyBaseLogger;
  readonly monitor?: JobMonitor | undefined;
}

export function periodicJob(options: {
  readonly name: string;
  readonly intervalMs: number;
  readonly run: (run: JobRun) => Promise<void>;
  readonly log: FastifyBaseLogger;
  readonly monitor?: JobMonitor | undefined;
}): PeriodicJob {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopping = new AbortController();
  let stopped = true;
  const tick = () => {
    const { signal } = stopping;
    running = options.run({ signal, log: options.log, monitor: options.monitor }).then(
      () => {
        options.monitor?.runSucceeded(options.name);
      },
      (error: unknown) => {
        options.log.error({ err: error, job: options.name }, 'job failed');
        options.monitor?.runFailed(options.name);
      },
    );
    void running.then(() => {
      if (!stopped && !signal.aborted) timer = setTimeout(tick, options.intervalMs);
    });
  };
  return {
    start() {
      if (!stopped) return;
      stopped = false;
      stopping = new AbortController();
      tick();
    },
    async stop() {
      stopped = true;
      stopping.abort();
      clearTimeout(timer);
      await running;
    },
  };
}
