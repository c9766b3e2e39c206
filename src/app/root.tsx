import { AppRoot } from '@telegram-apps/telegram-ui';
import { EnvironmentContext } from './environment-context';
import { ErrorBoundary } from './error-boundary';
import { AppRoutes } from './routes';
import { StartupError } from './screens/entry/startup-error';
import type { AppEnvironment } from './telegram/environment';

export function Root({ environment }: { readonly environment: AppEnvironment }) {
  return (
    <EnvironmentContext.Provider value={environment}>
      <AppRoot appearance={environment.appearance} platform={environment.platform}>
        <ErrorBoundary fallback={<StartupError />}>
          <AppRoutes />
        </ErrorBoundary>
      </AppRoot>
    </EnvironmentContext.Provider>
  );
}
