/**
 * The Telegram client as a page sees it, for the browser tests (tests/e2e/harness.ts) and the
 * first-screen bench: the launch parameters a client puts in the app's address, and the bridge it
 * injects into the page.
 */

/**
 * The launch parameters of a mini-app opened by a Telegram client, for the address's hash
 * (docs.telegram-mini-apps.com, "Launch Parameters"): `initData` signed for the app's bot, and
 * the Mini Apps version the client supports (8.0 unless said; an older one has fewer methods).
 */
export function launchParameters(
  initData: string,
  theme: Readonly<Record<string, string>>,
  platform = 'android',
  version = '8.0',
): string {
  return [
    `tgWebAppData=${encodeURIComponent(initData)}`,
    `tgWebAppVersion=${version}`,
    `tgWebAppPlatform=${platform}`,
    `tgWebAppThemeParams=${encodeURIComponent(JSON.stringify(theme))}`,
  ].join('&');
}

/** An event the app posted to the client, with its parameters (JSON-parsed; undefined without). */
export interface PostedEvent {
  readonly eventType: string;
  readonly eventData: unknown;
}

/**
 * What the page's fake client holds: the events posted to it (their names, and with their
 * parameters), the codes its scanner will read, what it answers of the home screen, and a way to
 * send the app an event as the client would (a press of its secondary or settings button).
 */
export interface FakeTelegramWindow {
  readonly __telegramPosted: string[];
  readonly __telegramPostedEvents: PostedEvent[];
  /** Each opening of the QR scanner reads the first of these; with none, the customer closes it. */
  readonly __telegramQrCodes: string[];
  /** The answer to `web_app_check_home_screen`: 'missed' (no shortcut yet) unless set. */
  __telegramHomeScreenStatus: 'unsupported' | 'unknown' | 'added' | 'missed';
  readonly __telegramEmit: (eventType: string, eventData?: unknown) => void;
}

/**
 * Stands in for the Telegram client in the page: the `TelegramWebviewProxy` that Android and iOS
 * clients inject, answering what the SDK asks at start-up (theme, viewport, safe areas) and the
 * QR scanner (`qr_text_received` with the next code of `__telegramQrCodes`, or
 * `scan_qr_popup_closed` when there is none) and the home screen's status (`home_screen_checked`
 * with `__telegramHomeScreenStatus`). Runs in the browser, so it is self-contained.
 */
export function fakeTelegramClient(theme: Record<string, string>): void {
  const posted: string[] = [];
  const postedEvents: { eventType: string; eventData: unknown }[] = [];
  const qrCodes: string[] = [];
  const answer = (eventType: string, eventData: unknown) => {
    // As a client answers: later, as a message from window.parent (the bridge ignores any other).
    setTimeout(() => {
      const data = JSON.stringify({ eventType, eventData });
      window.dispatchEvent(new MessageEvent('message', { data, source: window.parent }));
    }, 0);
  };
  const insets = { top: 0, bottom: 0, left: 0, right: 0 };
  const client = Object.assign(window, {
    __telegramPosted: posted,
    __telegramPostedEvents: postedEvents,
    __telegramQrCodes: qrCodes,
    __telegramHomeScreenStatus: 'missed',
    __telegramEmit: answer,
    TelegramWebviewProxy: {
      postEvent(eventType: string, eventData?: string): void {
        posted.push(eventType);
        postedEvents.push({
          eventType,
          eventData: eventData === undefined ? undefined : (JSON.parse(eventData) as unknown),
        });
        switch (eventType) {
          case 'web_app_request_theme':
            answer('theme_changed', { theme_params: theme });
            break;
          case 'web_app_request_viewport':
            answer('viewport_changed', {
              height: window.innerHeight,
              width: window.innerWidth,
              is_expanded: true,
              is_state_stable: true,
            });
            break;
          case 'web_app_request_safe_area':
            answer('safe_area_changed', insets);
            break;
          case 'web_app_request_content_safe_area':
            answer('content_safe_area_changed', insets);
            break;
          case 'web_app_open_scan_qr_popup': {
            const code = qrCodes.shift();
            if (code === undefined) answer('scan_qr_popup_closed', {});
            else answer('qr_text_received', { data: code });
            break;
          }
          case 'web_app_check_home_screen':
            answer('home_screen_checked', { status: client.__telegramHomeScreenStatus });
            break;
        }
      },
    },
  });
}
