/**
 * A job the server runs in its own process every so often (design.md, "Components"): the first
 * run at start-up, the next one an interval after the previous one ended, so runs never overlap;
 * a failed run is logged and the next one tries again. `stop` waits for a run in progress.
 */
import type { FastifyBaseLogger } from 'fastify';

export interface PeriodicJob {
  start(): void;
  stop(): Promise<void>;
}

export function periodicJob(options: {
  readonly name: string;
  readonly intervalMs: number;
  readonly run: () => Promise<void>;
  readonly log: FastifyBaseLogger;
}): PeriodicJob {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = true;
  const tick = () => {
    running = options.run().then(
      () => undefined,
      (error: unknown) => {
        options.log.error({ err: error, job: options.name }, 'job failed');
      },
    );
    void running.then(() => {
      if (!stopped) timer = setTimeout(tick, options.intervalMs);
    });
  };
  return {
    start() {
      if (!stopped) return;
      stopped = false;
      tick();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
