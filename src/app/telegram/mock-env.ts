/**
 * Outside Telegram, in demo mode only: imitate the Telegram client so the whole app runs in a
 * plain browser. The init data is real, signed by the server for its demo customer, so every API
 * call is checked exactly as it would be inside Telegram.
 */
import { emitEvent, mockTelegramEnv } from '@telegram-apps/sdk-react';

/** Telegram's own default palettes, so a browser shows what the app looks like in the client. */
const LIGHT_THEME = {
  accent_text_color: '#2481cc',
  bg_color: '#ffffff',
  button_color: '#2481cc',
  button_text_color: '#ffffff',
  destructive_text_color: '#d14e4e',
  header_bg_color: '#efeff3',
  hint_color: '#999999',
  link_color: '#2481cc',
  secondary_bg_color: '#efeff3',
  section_bg_color: '#ffffff',
  section_header_text_color: '#6d6d72',
  section_separator_color: '#e7e7e7',
  subtitle_text_color: '#999999',
  text_color: '#000000',
  bottom_bar_bg_color: '#ffffff',
} as const;

const DARK_THEME = {
  accent_text_color: '#6ab2f2',
  bg_color: '#17212b',
  button_color: '#5288c1',
  button_text_color: '#ffffff',
  destructive_text_color: '#ec3942',
  header_bg_color: '#17212b',
  hint_color: '#708499',
  link_color: '#6ab3f3',
  secondary_bg_color: '#232e3c',
  section_bg_color: '#17212b',
  section_header_text_color: '#6ab3f3',
  section_separator_color: '#111921',
  subtitle_text_color: '#708499',
  text_color: '#f5f5f5',
  bottom_bar_bg_color: '#17212b',
} as const;

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
