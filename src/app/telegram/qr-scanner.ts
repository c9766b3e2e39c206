/**
 * Telegram's own QR scanner (Mini Apps `web_app_open_scan_qr_popup`, since Bot API 6.4). The SDK
 * knows from the client's version whether it has one; outside Telegram (the demo's imitation of
 * the client answers no scanner) there is none.
 */
import { qrScanner } from '@telegram-apps/sdk-react';

/** True when the client can open its scanner: inside Telegram, on a client that supports it. */
export function canScanQr(inTelegram: boolean): boolean {
  return inTelegram && qrScanner.open.isAvailable();
}

/**
 * Opens the scanner with `title` and resolves with the text of the first code it reads (the SDK
 * then closes the scanner), or undefined when the customer closed it without scanning. A second
 * tap while it is open does nothing (the SDK would refuse a second scanner).
 */
export async function scanQrText(title: string): Promise<string | undefined> {
  if (qrScanner.isOpened()) return undefined;
  return qrScanner.open({ text: title });
}
