/**
 * The landing's service status (`GET /api/health`): pending while the first check runs,
 * then Online or Offline; checked again 10 s after each check, each giving up after 3 s.
 */
import { API_PATHS, type HealthResponse } from '../../shared/api';
import { HEALTH_CHECK_INTERVAL_MS, HEALTH_TIMEOUT_MS } from '../../shared/limits';
import { apiRequest } from '../api/client';
import { useFetchState } from '../hooks/use-fetch-state';
import { useI18nContext } from '../i18n/language';

export type HealthState = 'checking' | 'online' | 'offline';

export function HealthIndicator() {
  const { LL } = useI18nContext();
  // Any 2xx answer is a live server: the route only answers after a database round trip.
  const check = useFetchState(
    'health',
    (signal) =>
      apiRequest<HealthResponse>(API_PATHS.health, { signal, timeoutMs: HEALTH_TIMEOUT_MS }),
    { intervalMs: HEALTH_CHECK_INTERVAL_MS },
  );
  const state: HealthState =
    check.error !== undefined ? 'offline' : check.loading ? 'checking' : 'online';

  return (
    <div className={`health health--${state}`} role="status" aria-label={LL.health.label()}>
      <span className="health__dot" aria-hidden="true" />
      <span data-testid="health-state">{LL.health[state]()}</span>
    </div>
  );
}
