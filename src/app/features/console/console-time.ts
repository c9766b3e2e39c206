/**
 * The console's sense of time: the server's clock (from the answer's `serverTime`), ticking every
 * second, so ages and deadlines read right whatever the phone's clock says.
 */
import { useEffect, useState } from 'react';
import type { TranslationFunctions } from '../../../../i18n/i18n-types';
import { formatDuration } from '../../hooks/use-countdown';

/** The server's now, ticking every second: the phone's clock plus `offsetMs`. */
export function useServerNow(offsetMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now + offsetMs;
}

/** "12:03 left" or "2:10 overdue" for a deadline; null without one. */
export function deadlineText(
  deadline: string | null,
  now: number,
  LL: TranslationFunctions,
): { readonly text: string; readonly overdue: boolean } | null {
  if (deadline === null) return null;
  const left = Date.parse(deadline) - now;
  return left >= 0
    ? { text: LL.console.left({ time: formatDuration(left) }), overdue: false }
    : { text: LL.console.overdue({ time: formatDuration(-left) }), overdue: true };
}

/** "created 12:03 ago". */
export function ageText(createdAt: string, now: number, LL: TranslationFunctions): string {
  return LL.console.age({ time: formatDuration(Math.max(0, now - Date.parse(createdAt))) });
}
