/**
 * The landing's service status (spec sections 2, 4 and 7): pending while the first check runs,
 * then Online or Offline; rechecked every 10 s, each check giving up after 3 s.
 */
import { useEffect, useState } from 'react';
import { API_PATHS, type HealthResponse } from '../../shared/api';
import { HEALTH_TIMEOUT_MS, POLL_INTERVALS_MS } from '../../shared/limits';
import { apiRequest } from '../api/client';
import { useI18nContext } from '../i18n/language';

export type HealthState = 'checking' | 'online' | 'offline';

export function HealthIndicator() {
  const { LL } = useI18nContext();
  const [state, setState] = useState<HealthState>('checking');

  useEffect(() => {
    const controller = new AbortController();
    const check = async () => {
      try {
        // Any 2xx answer is a live server: the route only answers after a database round trip.
        await apiRequest<HealthResponse>(API_PATHS.health, {
          signal: controller.signal,
          timeoutMs: HEALTH_TIMEOUT_MS,
        });
        if (!controller.signal.aborted) setState('online');
      } catch {
        if (!controller.signal.aborted) setState('offline');
      }
    };
    void check();
    const timer = window.setInterval(() => void check(), POLL_INTERVALS_MS.health);
    return () => {
      controller.abort();
      window.clearInterval(timer);
    };
  }, []);

  return (
    <div className={`health health--${state}`} role="status" aria-label={LL.health.label()}>
      <span className="health__dot" aria-hidden="true" />
      <span data-testid="health-state">{LL.health[state]()}</span>
    </div>
  );
}
