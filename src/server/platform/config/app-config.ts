/**
 * What the app needs before it starts (`AppConfigResponse`), from the server's configuration:
 * answered by `GET /api/app-config` and put into index.html, so both say the same.
 */
import type { AppConfigResponse } from '../../../shared/api';
import { isDemoMode, type AppConfig } from './config';

export function appConfigOf(config: AppConfig): AppConfigResponse {
  return { demo: isDemoMode(config), supportUrl: config.supportUrl };
}
