import { themeParams, useSignal } from '@telegram-apps/sdk-react';
import { AppRoot } from '@telegram-apps/telegram-ui';
import { useEffect } from 'react';
import { EnvironmentContext } from './environment-context';
import { ErrorBoundary } from './error-boundary';
import { AppRoutes } from './routes';
import { StartupError } from './screens/entry/startup-error';
import type { AppEnvironment } from './telegram/environment';
import { useSettingsMenuEntry } from './telegram/settings-entry';

export function Root({ environment }: { readonly environment: AppEnvironment }) {
  // The customer may switch Telegram between light and dark while the app is open: the colours
  // follow through the bound CSS variables, the kit's appearance follows here.
  const dark = useSignal(themeParams.isDark);
  const appearance = themeParams.isMounted() ? (dark ? 'dark' : 'light') : environment.appearance;
  useSettingsMenuEntry();
  useEffect(() => {
    document.documentElement.dataset['appearance'] = appearance;
  }, [appearance]);
  return (
    <EnvironmentContext.Provider value={environment}>
      <AppRoot appearance={appearance} platform={environment.platform}>
        <ErrorBoundary fallback={<StartupError />}>
          <AppRoutes />
        </ErrorBoundary>
      </AppRoot>
    </EnvironmentContext.Provider>
  );
}
