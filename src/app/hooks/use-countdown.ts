/**
 * A countdown to a server deadline, corrected by the server's clock: the phone's clock may be
 * off by minutes, so the offset between the server's `serverTime` and the phone's time when the
 * answer arrived is applied to every tick.
 */
import { useEffect, useState } from 'react';

export interface Countdown {
  /** Milliseconds left, never below 0; undefined without a deadline. */
  readonly remainingMs: number | undefined;
  readonly expired: boolean;
}

/** The server's clock minus the phone's, from a `serverTime` received just now. */
export function clockOffset(
  serverTime: string | undefined,
  receivedAt: number = Date.now(),
): number {
  if (serverTime === undefined) return 0;
  const server = Date.parse(serverTime);
  return Number.isFinite(server) ? server - receivedAt : 0;
}

export function useCountdown(deadline: string | null | undefined, offsetMs: number): Countdown {
  const target = deadline === null || deadline === undefined ? undefined : Date.parse(deadline);
  const compute = () =>
    target === undefined ? undefined : Math.max(0, target - (Date.now() + offsetMs));
  const [remainingMs, setRemaining] = useState(compute);

  useEffect(() => {
    if (target === undefined) return;
    const tick = () => setRemaining(Math.max(0, target - (Date.now() + offsetMs)));
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [target, offsetMs]);

  return {
    remainingMs: target === undefined ? undefined : remainingMs,
    expired: remainingMs === 0,
  };
}

/**
 * m:ss, or h:mm:ss when an hour or more is shown (the bank's 2-hour timer); the seconds
 * round up, so a countdown reads 1:00:00, not 60:00, half a second after an hour's deadline.
 */
export function formatDuration(ms: number, withHours?: boolean): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return (withHours ?? total >= 3600)
    ? `${h}:${String(m).padStart(2, '0')}:${ss}`
    : `${h * 60 + m}:${ss}`;
}
