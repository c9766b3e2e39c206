/** Time since a moment, ticking every second: the waiting screens' elapsed counter (m:ss). */
import { useEffect, useState } from 'react';

export function useElapsed(since: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return Math.max(0, now - since);
}
