/**
 * The app's start-up configuration (demo mode, the support link). The server puts it into
 * index.html, so the first render waits for no call; only a page that carries none, or
 * a broken one (the Vite dev server serves index.html as it is), asks `GET /api/app-config`.
 */
import { API_PATHS, type AppConfigResponse } from '../../shared/api';
import { inlineAppConfig, parseAppConfig } from '../../shared/app-config';
import { ApiError, apiRequest } from './client';

export async function loadAppConfig(): Promise<AppConfigResponse> {
  const inline = inlineAppConfig(document);
  if (inline !== undefined) return inline;
  const config = parseAppConfig(await apiRequest<unknown>(API_PATHS.appConfig));
  if (config === undefined) throw new ApiError(200, 'INTERNAL');
  return config;
}
