/**
 * Telegram's closing confirmation (Mini Apps `web_app_setup_closing_behavior`): while a form holds
 * what the customer typed, closing the app asks first, so an address or a card typed on a phone
 * is not lost to a stray swipe. Off again once the form is empty or gone (an order created).
 */
import { closingBehavior } from '@telegram-apps/sdk-react';
import { useEffect } from 'react';

export function useClosingConfirmation(holdsInput: boolean): void {
  useEffect(() => {
    if (!holdsInput || !closingBehavior.isMounted()) return;
    closingBehavior.enableConfirmation();
    return () => {
      closingBehavior.disableConfirmation();
    };
  }, [holdsInput]);
}
