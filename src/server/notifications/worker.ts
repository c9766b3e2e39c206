/**
 * The outbox worker (docs/bot.md, "Delivery"): claims due rows, sends each, records the outcome.
 * Each chat is its own queue, so a slow chat never holds another. At least once: Telegram has no
 * idempotency key, so a row is marked `sending` just before the call and `sent` just after.
 */
import { setMaxListeners } from 'node:events';
import { claim, setAsideUnsendable } from './claim';
import { CLAIM_BATCH, OUTBOX_JOB, Stopping, type OutboxSettings } from './outbox-settings';
import { deliver } from './send-row';

export { waiting } from './claim';
export type { OutboxSettings } from './outbox-settings';
export { MAX_ATTEMPTS } from './row-outcome';

export interface OutboxPass {
  readonly claimed: number;
  readonly sent: number;
}

export async function sendDueNotifications(settings: OutboxSettings): Promise<OutboxPass> {
  if (settings.signal?.aborted === true) return { claimed: 0, sent: 0 };
  const claimed = await claim(settings, settings.now());
  const rows = await setAsideUnsendable(settings, claimed);
  const outcomes = await Promise.all(rows.map((row) => deliver(settings, row)));
  return { claimed: claimed.length, sent: outcomes.filter((o) => o?.kind === 'sent').length };
}

export interface RunningOutbox {
  /** Sends on their way finish; those waiting for a place stay for the next start. */
  stop(): Promise<void>;
}

/** Up to CLAIM_BATCH sends in flight, claiming as each ends: a waiting chat holds one place. */
export function startOutbox(settings: OutboxSettings, intervalMs: number): RunningOutbox {
  const stopping = new AbortController();
  const signal =
    settings.signal === undefined
      ? stopping.signal
      : AbortSignal.any([settings.signal, stopping.signal]);
  setMaxListeners(CLAIM_BATCH + 2, signal);
  const running = { ...settings, signal };
  const inFlight = new Set<Promise<unknown>>();
  let wake: (() => void) | undefined;
  const rest = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        wake = undefined;
        resolve();
      }
      wake = done;
      signal.addEventListener('abort', done, { once: true });
    });

  const loop = async (): Promise<void> => {
    while (!signal.aborted) {
      let claimed = 0;
      const room = CLAIM_BATCH - inFlight.size;
      if (room > 0) {
        try {
          const claimedRows = await claim(running, settings.now(), room);
          claimed = claimedRows.length;
          const rows = await setAsideUnsendable(running, claimedRows);
          for (const row of rows) {
            const send: Promise<unknown> = deliver(running, row).finally(() => {
              inFlight.delete(send);
              wake?.();
            });
            inFlight.add(send);
          }
          settings.monitor?.runSucceeded(OUTBOX_JOB);
        } catch (error) {
          settings.log.error({ err: error, job: OUTBOX_JOB }, 'job failed');
          settings.monitor?.runFailed(OUTBOX_JOB);
        }
      }
      if (claimed === 0 || inFlight.size >= CLAIM_BATCH) await rest(intervalMs);
      else await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const done = loop();
  return {
    async stop() {
      stopping.abort(new Stopping('the server is closing'));
      await done;
      await Promise.all(inFlight);
    },
  };
}
