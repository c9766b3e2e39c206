/**
 * Outside Telegram, in demo mode only: imitate the Telegram client so the whole app runs in a
 * plain browser. The init data is real, signed by the server for its demo customer, so every API
 * call is checked exactly as it would be inside Telegram.
 */
import { emitEvent, mockTelegramEnv } from '@telegram-apps/sdk-react';
import { DARK_THEME, LIGHT_THEME } from './default-themes';

export function mockTelegram(initData: string, startParam: string | undefined): void {
  const dark = window.matchMedia('(prefers-color-scheme: dark)').matches;
  const theme = dark ? DARK_THEME : LIGHT_THEME;
  const noInsets = { left: 0, top: 0, bottom: 0, right: 0 } as const;
  const launchParams = new URLSearchParams([
    ['tgWebAppThemeParams', JSON.stringify(theme)],
    ['tgWebAppData', initData],
    ['tgWebAppVersion', '8.0'],
    ['tgWebAppPlatform', 'web'],
  ]);
  if (startParam !== undefined) launchParams.set('tgWebAppStartParam', startParam);

  mockTelegramEnv({
    launchParams,
    resetPostMessage: true,
    onEvent(event) {
      switch (event[0]) {
        case 'web_app_request_theme':
          emitEvent('theme_changed', { theme_params: theme });
          return;
        case 'web_app_request_viewport':
          emitEvent('viewport_changed', {
            height: window.innerHeight,
            width: window.innerWidth,
            is_expanded: true,
            is_state_stable: true,
          });
          return;
        case 'web_app_request_safe_area':
          emitEvent('safe_area_changed', noInsets);
          return;
        case 'web_app_request_content_safe_area':
          emitEvent('content_safe_area_changed', noInsets);
          return;
      }
    },
  });
}
