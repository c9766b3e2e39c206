/**
 * The outbox worker: it claims due rows (claim.ts), sends each (send-row.ts) and records what
 * became of it (row-outcome.ts). A claim is a conditional UPDATE with a lease, so with several
 * instances a row is sent by one, and by another only if the first died holding it.
 *
 * Each chat is its own queue (the operators' chat one per kind of alert), so a recipient's
 * messages go in order and a slow chat never holds back another. Delivery is at least once:
 * Telegram has no idempotency key, so the row is marked `sending` right before the call and
 * `sent` by the next statement after the answer, and a lapsed `sending` row is sent again.
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

/** One pass: claims what is due and sends it, the chats side by side, and waits for them all. */
export async function sendDueNotifications(settings: OutboxSettings): Promise<OutboxPass> {
  if (settings.signal?.aborted === true) return { claimed: 0, sent: 0 };
  const claimed = await claim(settings, settings.now());
  const rows = await setAsideUnsendable(settings, claimed);
  const outcomes = await Promise.all(rows.map((row) => deliver(settings, row)));
  return { claimed: claimed.length, sent: outcomes.filter((o) => o?.kind === 'sent').length };
}

export interface RunningOutbox {
  /**
   * Stops claiming, lets the sends already on their way to Telegram finish (those still waiting
   * for their place are let go, for the next start), and resolves when they have.
   */
  stop(): Promise<void>;
}

/**
 * The worker as the server runs it: each chat a queue of its own. It keeps up to CLAIM_BATCH sends
 * going and claims again whenever one ends, so a chat that waits for Telegram's limits holds only
 * its own place; when nothing is due it looks again every `intervalMs`. Stops with
 * `settings.signal` or `stop()`.
 */
export function startOutbox(settings: OutboxSettings, intervalMs: number): RunningOutbox {
  const stopping = new AbortController();
  const signal =
    settings.signal === undefined
      ? stopping.signal
      : AbortSignal.any([settings.signal, stopping.signal]);
  // Each send waiting for its place listens for the stop, the loop's rest too.
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
      // A yield to the event loop between claims; a rest when nothing was due or no room is left.
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
