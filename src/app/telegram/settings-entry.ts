/**
 * The settings entry of the mini-app's menu in Telegram (Mini Apps `web_app_setup_settings_button`,
 * since 6.10): shown for as long as the app runs, it opens the settings screen (the language and
 * the saved details). A client without it keeps the in-page entry on the currencies screen, which
 * every client has anyway.
 */
import { settingsButton } from '@telegram-apps/sdk-react';
import { useEffect } from 'react';
import { useLocation } from 'wouter';

export function useSettingsMenuEntry(): void {
  const [, navigate] = useLocation();
  useEffect(() => {
    if (!settingsButton.isMounted()) return;
    settingsButton.show();
    const off = settingsButton.onClick(() => navigate('/settings'));
    return () => {
      off();
      settingsButton.hide();
    };
  }, [navigate]);
}
