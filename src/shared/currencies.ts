/**
 * Fiat currencies and the payment methods each offers
 * (the method screens).
 */
import type { PaymentMethod } from './order-status';

/** The currencies the currency list shows, in its order. */
export const LISTED_CURRENCIES = ['RUB', 'USD', 'EUR', 'AED', 'KZT'] as const;
export type ListedCurrency = (typeof LISTED_CURRENCIES)[number];

/** Every currency the names table knows: the listed five and four that are not shown. */
export const KNOWN_CURRENCIES = [...LISTED_CURRENCIES, 'AMD', 'TRY', 'IRR', 'CNY'] as const;
export type KnownCurrency = (typeof KNOWN_CURRENCIES)[number];

export interface Currency {
  readonly code: KnownCurrency;
  readonly symbol: string;
  /** A flag emoji of the currency's country or union. */
  readonly flag: string;
}

/** Code, symbol and flag; names come from `Intl.DisplayNames` in the customer's language. */
export const CURRENCIES: Readonly<Record<KnownCurrency, Currency>> = {
  RUB: { code: 'RUB', symbol: '₽', flag: '🇷🇺' },
  USD: { code: 'USD', symbol: '$', flag: '🇺🇸' },
  EUR: { code: 'EUR', symbol: '€', flag: '🇪🇺' },
  AED: { code: 'AED', symbol: 'د.إ', flag: '🇦🇪' },
  KZT: { code: 'KZT', symbol: '₸', flag: '🇰🇿' },
  AMD: { code: 'AMD', symbol: '֏', flag: '🇦🇲' },
  TRY: { code: 'TRY', symbol: '₺', flag: '🇹🇷' },
  IRR: { code: 'IRR', symbol: '﷼', flag: '🇮🇷' },
  CNY: { code: 'CNY', symbol: '¥', flag: '🇨🇳' },
};

export function isListedCurrency(code: unknown): code is ListedCurrency {
  return typeof code === 'string' && (LISTED_CURRENCIES as readonly string[]).includes(code);
}

/**
 * The fiat currencies each method takes (RUB by P2P and bank transfer; RUB, USD,
 * EUR, AED and KZT as cash at an office). The server quotes and creates only these pairs; the
 * method screens offer only these.
 */
const METHOD_CURRENCIES: Readonly<Record<PaymentMethod, readonly ListedCurrency[]>> = {
  P2P: ['RUB'],
  BANK_ACCOUNT: ['RUB'],
  OFFICE: LISTED_CURRENCIES,
};

export function methodTakesCurrency(method: PaymentMethod, code: string): boolean {
  return (METHOD_CURRENCIES[method] as readonly string[]).includes(code);
}

/** The ways to pay that a method screen offers. */
export type MethodOption = 'p2p' | 'bankAccount' | 'card' | 'eWallet' | 'office';

export interface MethodEntry {
  readonly option: MethodOption;
  /** The route the entry opens. */
  readonly route: string;
  /** False for the 'coming soon' methods, which are shown disabled. */
  readonly available: boolean;
}

const RUB_METHODS: readonly MethodEntry[] = [
  { option: 'p2p', route: '/p2p', available: true },
  { option: 'bankAccount', route: '/bank-account', available: true },
  { option: 'card', route: '/card-payment', available: false },
  { option: 'office', route: '/office-exchange', available: true },
];

const OFFICE_ONLY_METHODS: readonly MethodEntry[] = [
  { option: 'office', route: '/office-exchange', available: true },
  { option: 'card', route: '/card-payment', available: false },
  { option: 'eWallet', route: '/e-wallets', available: false },
];

/** The method screen route of a currency (/currencies). */
export function methodRoute(code: string): string {
  return isListedCurrency(code) ? `/${code.toLowerCase()}-method` : '/payment-systems';
}

/** The entries of a currency's method screen, in the order it lists them. */
export function methodsFor(code: ListedCurrency): readonly MethodEntry[] {
  return code === 'RUB' ? RUB_METHODS : OFFICE_ONLY_METHODS;
}
