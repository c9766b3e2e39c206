/**
 * After the customer's first completed order, Telegram's offer to add the app to the home screen
 * (Mini Apps `web_app_check_home_screen` and `web_app_add_to_home_screen`, since 8.0): once per
 * device, and only when the client says the shortcut is not there yet. The offer itself is
 * Telegram's own prompt, which the customer accepts or declines.
 */
import { addToHomeScreen, checkHomeScreenStatus } from '@telegram-apps/sdk-react';
import { useEffect } from 'react';
import { useEnvironment } from '../environment-context';
import { takeHomeScreenOffer } from '../storage';

export function useHomeScreenOffer(orderCompleted: boolean): void {
  const { inTelegram } = useEnvironment();
  useEffect(() => {
    if (!orderCompleted || !inTelegram) return;
    if (!checkHomeScreenStatus.isAvailable() || !addToHomeScreen.isAvailable()) return;
    // Taken before asking, so that a second screen (or a second render) never offers twice.
    if (!takeHomeScreenOffer()) return;
    checkHomeScreenStatus()
      .then((status) => {
        // 'unknown' is a client that cannot tell: the prompt is still Telegram's to show.
        if (status === 'missed' || status === 'unknown') addToHomeScreen();
      })
      .catch((error: unknown) => console.warn('home screen status failed', error));
  }, [orderCompleted, inTelegram]);
}
