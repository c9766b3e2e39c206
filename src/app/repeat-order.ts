/**
 * Repeating an order: the form it was made with, filled with what it was made of (the coin, the
 * network, the amount the form leads with, the buy's wallet and office city, the sell's card when
 * it is saved), and nothing else: the form quotes it again at today's rate and the customer
 * confirms as for any order. The values travel in the navigation's history state and the form
 * takes them as its default values, so a repeated form is the same form, only not empty.
 */
import { useHistoryState } from 'wouter/use-browser-location';
import type { OrderDetails, OrderSummary } from '../shared/api';
import { isListedCurrency, type ListedCurrency } from '../shared/currencies';
import { networksFor } from '../shared/networks';
import { isFinalStatus, type PaymentMethod } from '../shared/order-status';
import { savedCardShownAs } from '../shared/saved-details';
import type { BuyFormValues, SellFormValues } from '../shared/schemas/forms';
import type { SavedCard } from '../shared/schemas/saved-details';

/** The history state a repeated form opens with. */
export type RepeatState =
  | { readonly repeat: 'BUY'; readonly values: Partial<BuyFormValues> }
  | { readonly repeat: 'SELL'; readonly values: Partial<SellFormValues> };

/** The buy form of each payment method; a sell is always P2P's. */
const BUY_FORM_ROUTES: Readonly<Record<PaymentMethod, string>> = {
  P2P: '/p2p/buy',
  BANK_ACCOUNT: '/bank-account',
  OFFICE: '/office-exchange',
};
const SELL_FORM_ROUTE = '/p2p/sell';

export interface RepeatPlan {
  /** The currency the form is for, selected as the currency list would. */
  readonly currency: ListedCurrency;
  readonly path: string;
  readonly state: RepeatState;
}

/**
 * An order is offered for repeating once it has ended (an open one is still the customer's to
 * finish), when a form of today takes it: its currency still listed, its network still offered
 * for its coin and method.
 */
export function isRepeatable<T extends OrderSummary>(
  order: T,
): order is T & { readonly currency: ListedCurrency } {
  return (
    isFinalStatus(order.status) &&
    isListedCurrency(order.currency) &&
    networksFor(order.paymentMethod, order.cryptoCurrency).includes(order.network)
  );
}

/**
 * Where and with what a repeatable order is repeated; a sell's card is filled in when it is one of
 * `savedCards` (the order shows its card masked only), else the form offers the saved cards.
 */
export function repeatPlan(
  order: OrderDetails & { readonly currency: ListedCurrency },
  savedCards: readonly SavedCard[],
): RepeatPlan {
  const chosen = { cryptoCurrency: order.cryptoCurrency, network: order.network };
  if (order.type === 'SELL') {
    const saved = savedCardShownAs(savedCards, order.payoutCard);
    const card =
      saved === undefined
        ? {}
        : { cardNumber: saved.cardNumber, cardHolder: saved.cardHolder, bankName: saved.bankName };
    return {
      currency: order.currency,
      path: SELL_FORM_ROUTE,
      state: {
        repeat: 'SELL',
        values: { ...chosen, cryptoAmount: String(order.amount), ...card },
      },
    };
  }
  return {
    currency: order.currency,
    path: BUY_FORM_ROUTES[order.paymentMethod],
    state: {
      repeat: 'BUY',
      values: {
        ...chosen,
        fiatAmount: String(order.totalRub),
        walletAddress: order.walletAddress ?? '',
        cityId: order.cityId ?? '',
      },
    },
  };
}

/** The values a form of `kind` opens with when it repeats an order; none otherwise. */
export function useRepeatedValues(kind: 'BUY'): Partial<BuyFormValues>;
export function useRepeatedValues(kind: 'SELL'): Partial<SellFormValues>;
export function useRepeatedValues(
  kind: 'BUY' | 'SELL',
): Partial<BuyFormValues> | Partial<SellFormValues> {
  const state = useHistoryState<Partial<RepeatState> | null>();
  return state?.repeat === kind && state.values !== undefined ? state.values : {};
}
