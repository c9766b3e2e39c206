/**
 * Telegram's own affordances with a plain-browser fallback: haptics, links and popups.
 * Every call is safe outside Telegram (the SDK's `ifAvailable` does nothing there).
 */
import { hapticFeedback, openLink, openTelegramLink, popup } from '@telegram-apps/sdk-react';

export function hapticSelection(): void {
  hapticFeedback.selectionChanged.ifAvailable();
}

export function hapticTap(): void {
  hapticFeedback.impactOccurred.ifAvailable('light');
}

export function hapticSuccess(): void {
  hapticFeedback.notificationOccurred.ifAvailable('success');
}

export function hapticError(): void {
  hapticFeedback.notificationOccurred.ifAvailable('error');
}

/** Opens a t.me link inside Telegram; in a browser, in a new tab. */
export function openSupportLink(url: string, inTelegram: boolean): void {
  if (inTelegram && openTelegramLink.isAvailable()) {
    openTelegramLink(url);
    return;
  }
  window.open(url, '_blank', 'noopener,noreferrer');
}

/** Opens a web page (a block explorer) through Telegram's in-app browser; in a browser, a new tab. */
export function openExternalLink(url: string, inTelegram: boolean): void {
  if (inTelegram && openLink.isAvailable()) {
    openLink(url);
    return;
  }
  window.open(url, '_blank', 'noopener,noreferrer');
}

/** An alert through Telegram's popup inside Telegram, `window.alert` in a browser. */
export async function showAlert(message: string, inTelegram: boolean): Promise<void> {
  if (inTelegram && popup.show.isAvailable()) {
    await popup.show({ message, buttons: [{ type: 'ok' }] });
    return;
  }
  window.alert(message);
}

/** A yes/no question through Telegram's popup, `window.confirm` in a browser. */
export async function askConfirm(
  message: string,
  labels: { readonly ok: string; readonly cancel: string },
  inTelegram: boolean,
): Promise<boolean> {
  if (inTelegram && popup.show.isAvailable()) {
    const pressed = await popup.show({
      message,
      buttons: [
        { id: 'ok', type: 'default', text: labels.ok },
        { id: 'cancel', type: 'default', text: labels.cancel },
      ],
    });
    return pressed === 'ok';
  }
  return window.confirm(message);
}
