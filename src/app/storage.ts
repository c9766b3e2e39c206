/**
 * The client's state: `selectedLanguage` (local storage, ru or en),
 * `selectedCurrency` (session storage, JSON with code and symbol), the deep-link order id
 * (session storage) and `waiting_start_{orderId}` (local storage). Storage can be unavailable or
 * hold junk; every read is defensive.
 */
import {
  isDemoBrowserId,
  isLanguage,
  orderIdFromStartParam,
  startLink,
  type Language,
} from '../shared/api';
import { CURRENCIES, isListedCurrency, type ListedCurrency } from '../shared/currencies';
import { orderChatPath } from './order-side-paths';

const LANGUAGE_KEY = 'selectedLanguage';
/** Demo mode only: this browser's own demo customer. */
const DEMO_BROWSER_KEY = 'demoBrowserId';
const CURRENCY_KEY = 'selectedCurrency';
const DEEP_LINK_KEY = 'deepLinkOrderId';
/**
 * The start parameter of any other link the app opens at once (linkRoute), kept until the start-up
 * takes it.
 */
const LINK_KEY = 'deepLinkStartParam';

export interface SelectedCurrency {
  readonly code: ListedCurrency;
  readonly symbol: string;
}

function read(storage: Storage, key: string): string | null {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}

function write(storage: Storage, key: string, value: string | null): void {
  try {
    if (value === null) storage.removeItem(key);
    else storage.setItem(key, value);
  } catch {
    // Private mode or a full quota: the app still works for this visit.
  }
}

/** The language the customer chose, or null when none is stored yet. */
export function getStoredLanguage(): Language | null {
  const value = read(localStorage, LANGUAGE_KEY);
  return isLanguage(value) ? value : null;
}

export function setStoredLanguage(language: Language): void {
  write(localStorage, LANGUAGE_KEY, language);
}

export function clearStoredLanguage(): void {
  write(localStorage, LANGUAGE_KEY, null);
}

export function getSelectedCurrency(): SelectedCurrency | null {
  const raw = read(sessionStorage, CURRENCY_KEY);
  if (raw === null) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null) return null;
    const code = (parsed as { code?: unknown }).code;
    return isListedCurrency(code) ? { code, symbol: CURRENCIES[code].symbol } : null;
  } catch {
    return null;
  }
}

export function setSelectedCurrency(code: ListedCurrency): void {
  const value: SelectedCurrency = { code, symbol: CURRENCIES[code].symbol };
  write(sessionStorage, CURRENCY_KEY, JSON.stringify(value));
}

/**
 * The route a start parameter other than `order_<id>` opens, or null for none: an order's chat
 * (`chat_<id>`, the bot's button under an operator's message), and for an operator's link from the
 * bot's alert the order in the console (`console_<id>`) or the queue (`console`, a flood's summary).
 */
function linkRoute(startParam: string | null | undefined): string | null {
  const link = startLink(startParam);
  switch (link?.opens) {
    case 'queue':
      return '/console';
    case 'console':
      return `/console/orders/${encodeURIComponent(link.orderId)}`;
    case 'chat':
      return orderChatPath(link.orderId);
    default:
      return null;
  }
}

/** Keeps a start parameter for the start-up to act on: the order id of `order_<id>`, or the link. */
export function rememberDeepLink(startParam: string | undefined): void {
  const orderId = orderIdFromStartParam(startParam);
  if (orderId !== undefined) write(sessionStorage, DEEP_LINK_KEY, orderId);
  if (linkRoute(startParam) !== null) write(sessionStorage, LINK_KEY, startParam ?? null);
}

function take(key: string): string | null {
  const id = read(sessionStorage, key);
  write(sessionStorage, key, null);
  return id;
}

/** The deep-link order id, removed as it is read so that it opens the order once. */
export function takeDeepLinkOrderId(): string | null {
  return take(DEEP_LINK_KEY);
}

/** The route a kept link opens (linkRoute), handed out once like the order id. */
export function takeLinkRoute(): string | null {
  return linkRoute(take(LINK_KEY));
}

/**
 * This browser's demo identity: a random id made on first use and kept, so each browser is its
 * own demo customer. Without storage, a new one each visit.
 */
export function demoBrowserId(): string {
  const stored = read(localStorage, DEMO_BROWSER_KEY);
  if (isDemoBrowserId(stored)) return stored;
  // getRandomValues, not randomUUID: a demo opened at http://<LAN address> is no secure context.
  const made = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');
  write(localStorage, DEMO_BROWSER_KEY, made);
  return made;
}

const waitingStartKey = (orderId: string) => `waiting_start_${orderId}`;

/**
 * When this customer started waiting for requisites of this order (`waiting_start_{orderId}`,
 * local storage), stored on first sight so the elapsed counter survives a reload.
 */
export function waitingStart(orderId: string, now: number = Date.now()): number {
  const stored = Number(read(localStorage, waitingStartKey(orderId)));
  if (Number.isFinite(stored) && stored > 0) return stored;
  write(localStorage, waitingStartKey(orderId), String(now));
  return now;
}

/** Forgets the waiting start once the order has moved on. */
export function clearWaitingStart(orderId: string): void {
  write(localStorage, waitingStartKey(orderId), null);
}

const HOME_SCREEN_OFFERED_KEY = 'homeScreenOffered';

/**
 * Marks the offer to add the app to the home screen as made on this device; answers true the
 * first time only, so the offer is made once.
 */
export function takeHomeScreenOffer(): boolean {
  if (read(localStorage, HOME_SCREEN_OFFERED_KEY) !== null) return false;
  write(localStorage, HOME_SCREEN_OFFERED_KEY, '1');
  return true;
}
