/**
 * A periodic job: the first run at start-up, the next an interval after the previous ended, so
 * runs never overlap; `stop` aborts the run's signal and waits for the batch in hand.
 */
import type { FastifyBaseLogger } from 'fastify';

export interface PeriodicJob {
  start(): void;
  stop(): Promise<void>;
}

/** By the job's name: how each run ended, and each item a run set aside while going on. */
export interface JobMonitor {
  runSucceeded(job: string): void;
  runFailed(job: string): void;
  itemFailed(job: string): void;
}

export interface JobOptions {
  readonly now: () => number;
  readonly log: FastifyBaseLogger;
  readonly monitor?: JobMonitor | undefined;
}

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
