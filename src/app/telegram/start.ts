/**
 * Telegram start-up: detect Telegram, mock it in demo mode
 * outside Telegram, initialise the SDK, mount the back, main and secondary buttons, the settings
 * entry of the menu, the closing behaviour, mini app, theme and viewport and bind their CSS variables.
 */
import {
  backButton,
  closingBehavior,
  init,
  initData,
  isTMA,
  mainButton,
  miniApp,
  retrieveLaunchParams,
  secondaryButton,
  settingsButton,
  themeParams,
  viewport,
} from '@telegram-apps/sdk-react';
import { API_PATHS, type DemoSessionResponse } from '../../shared/api';
import { loadAppConfig } from '../api/app-config';
import { setInitData } from '../api/client';
import { demoBrowserId, rememberDeepLink } from '../storage';
import type { AppEnvironment } from './environment';
import { bindReadableTheme } from './readable-theme';

export type StartResult =
  | { readonly kind: 'ready'; readonly environment: AppEnvironment }
  | { readonly kind: 'open-in-telegram' };

async function fetchJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.json()) as T;
}

/** The start parameter a browser link can carry (`?startapp=order_…`, as t.me links do). */
function browserStartParam(): string | undefined {
  const search = new URLSearchParams(window.location.search);
  return search.get('startapp') ?? search.get('tgWebAppStartParam') ?? undefined;
}

export async function startTelegram(): Promise<StartResult> {
  const [inTelegram, config] = await Promise.all([isTMA('complete'), loadAppConfig()]);

  if (!inTelegram) {
    if (!config.demo) return { kind: 'open-in-telegram' };
    const startParam = browserStartParam();
    const query = new URLSearchParams({
      browser: demoBrowserId(),
      ...(startParam === undefined ? {} : { startParam }),
    });
    // Loaded only here, so customers inside Telegram never download the imitation.
    const [session, { mockTelegram }] = await Promise.all([
      fetchJson<DemoSessionResponse>(`${API_PATHS.demoSession}?${query.toString()}`),
      import('./mock-env'),
    ]);
    mockTelegram(session.initData, startParam);
  }

  init();
  backButton.mount.ifAvailable();
  // The main and secondary buttons carry each screen's primary and second action, the menu's
  // settings entry opens the settings and the closing confirmation guards typed input, inside
  // Telegram only: the demo's imitation of Telegram keeps the in-page buttons. Each mounts only
  // on a client that has it (by its Mini Apps version), so an older one keeps the page's own.
  if (inTelegram) {
    mainButton.mount.ifAvailable();
    secondaryButton.mount.ifAvailable();
    settingsButton.mount.ifAvailable();
    closingBehavior.mount.ifAvailable();
  }
  initData.restore();
  if (miniApp.mountSync.isAvailable()) {
    miniApp.mountSync();
    bindReadableTheme();
  }
  if (viewport.mount.isAvailable()) {
    void viewport.mount().then(() => {
      viewport.bindCssVars.ifAvailable();
      viewport.expand.ifAvailable();
    });
  }

  const raw = initData.raw();
  if (raw === undefined) return { kind: 'open-in-telegram' };
  setInitData(raw);
  rememberDeepLink(initData.startParam());

  const { tgWebAppPlatform } = retrieveLaunchParams();
  miniApp.ready.ifAvailable();
  return {
    kind: 'ready',
    environment: {
      inTelegram,
      demo: config.demo,
      supportUrl: config.supportUrl,
      appearance: themeParams.isDark() ? 'dark' : 'light',
      platform: tgWebAppPlatform === 'ios' || tgWebAppPlatform === 'macos' ? 'ios' : 'base',
    },
  };
}
