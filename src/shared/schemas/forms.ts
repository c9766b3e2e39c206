/**
 * The buy forms of spec section 5, one valibot schema each, used by react-hook-form in the app
 * (through @hookform/resolvers/valibot). Field values are the strings the inputs hold; every
 * message is a key of the dictionary's `errors` section, translated when shown, so switching the
 * language re-translates an error already on screen.
 */
import * as v from 'valibot';
import { parseAmount } from '../amounts';
import { checkTxHash, checkWalletAddress } from '../addresses';
import { isValidCardNumber } from '../cards';
import { CRYPTO_CURRENCIES, NETWORK_IDS } from '../networks';
import type { AmountBounds } from '../limits';

/** The keys of `errors` a form can show. */
export type FormErrorKey =
  | 'fillAllFields'
  | 'minAmount'
  | 'maxAmount'
  | 'invalidWalletAddress'
  | 'invalidCardNumber'
  | 'invalidPhone'
  | 'invalidTxHash';

const filled = (s: string) => s.trim() !== '';

/**
 * A buy form (P2P, bank or office): the amount in the fiat currency, the crypto amount, coin,
 * network and wallet, and for an office buy the city. Required fields, the bounds of the method
 * and currency, and a wallet valid for the network (checksum included) are checked before the
 * order is sent; the server checks all of it again.
 */
export function buyFormSchema(bounds: AmountBounds, options: { readonly requireCity: boolean }) {
  return v.pipe(
    v.object({
      fiatAmount: v.string(),
      cryptoAmount: v.string(),
      cryptoCurrency: v.picklist(CRYPTO_CURRENCIES),
      network: v.picklist(NETWORK_IDS),
      walletAddress: v.string(),
      cityId: v.string(),
    }),
    v.forward(
      v.check((form) => filled(form.fiatAmount), 'fillAllFields' satisfies FormErrorKey),
      ['fiatAmount'],
    ),
    v.forward(
      v.check((form) => filled(form.walletAddress), 'fillAllFields' satisfies FormErrorKey),
      ['walletAddress'],
    ),
    v.forward(
      v.check(
        (form) => !options.requireCity || filled(form.cityId),
        'fillAllFields' satisfies FormErrorKey,
      ),
      ['cityId'],
    ),
    v.forward(
      v.check((form) => {
        const amount = parseAmount(form.fiatAmount);
        return amount === undefined || amount >= bounds.min;
      }, 'minAmount' satisfies FormErrorKey),
      ['fiatAmount'],
    ),
    v.forward(
      v.check((form) => {
        const amount = parseAmount(form.fiatAmount);
        return amount === undefined || amount <= bounds.max;
      }, 'maxAmount' satisfies FormErrorKey),
      ['fiatAmount'],
    ),
    v.forward(
      v.check(
        (form) =>
          !filled(form.walletAddress) ||
          checkWalletAddress(form.network, form.walletAddress.trim()) === null,
        'invalidWalletAddress' satisfies FormErrorKey,
      ),
      ['walletAddress'],
    ),
  );
}

export type BuyFormValues = v.InferInput<ReturnType<typeof buyFormSchema>>;

/**
 * The P2P sell form (spec section 5): crypto amount, card number, holder and bank name are
 * required; the rouble total must lie within 3 000 – 500 000; phone and comment are optional.
 * The card must be a complete number with a valid checksum, so a typo cannot send the money to
 * a stranger.
 */
export function sellFormSchema(bounds: AmountBounds) {
  return v.pipe(
    v.object({
      cryptoAmount: v.string(),
      fiatAmount: v.string(),
      cryptoCurrency: v.picklist(CRYPTO_CURRENCIES),
      network: v.picklist(NETWORK_IDS),
      cardNumber: v.string(),
      cardHolder: v.string(),
      bankName: v.string(),
      phone: v.string(),
      comment: v.string(),
    }),
    v.forward(
      v.check((form) => filled(form.cryptoAmount), 'fillAllFields' satisfies FormErrorKey),
      ['cryptoAmount'],
    ),
    v.forward(
      v.check((form) => filled(form.cardNumber), 'fillAllFields' satisfies FormErrorKey),
      ['cardNumber'],
    ),
    v.forward(
      v.check((form) => filled(form.cardHolder), 'fillAllFields' satisfies FormErrorKey),
      ['cardHolder'],
    ),
    v.forward(
      v.check((form) => filled(form.bankName), 'fillAllFields' satisfies FormErrorKey),
      ['bankName'],
    ),
    v.forward(
      v.check((form) => {
        const total = parseAmount(form.fiatAmount);
        return total === undefined || total >= bounds.min;
      }, 'minAmount' satisfies FormErrorKey),
      ['fiatAmount'],
    ),
    v.forward(
      v.check((form) => {
        const total = parseAmount(form.fiatAmount);
        return total === undefined || total <= bounds.max;
      }, 'maxAmount' satisfies FormErrorKey),
      ['fiatAmount'],
    ),
    v.forward(
      v.check(
        (form) => !filled(form.cardNumber) || isValidCardNumber(form.cardNumber),
        'invalidCardNumber' satisfies FormErrorKey,
      ),
      ['cardNumber'],
    ),
    v.forward(
      v.check(
        (form) => /^(\+?[\d ()-]{7,20})?$/.test(form.phone.trim()),
        'invalidPhone' satisfies FormErrorKey,
      ),
      ['phone'],
    ),
  );
}

export type SellFormValues = v.InferInput<ReturnType<typeof sellFormSchema>>;

/** The transaction hash of a sell (spec section 5): required after trimming, valid for the network. */
export function txHashSchema(network: (typeof NETWORK_IDS)[number]) {
  return v.object({
    txHash: v.pipe(
      v.string(),
      v.trim(),
      v.nonEmpty('fillAllFields' satisfies FormErrorKey),
      v.check(
        (hash) => checkTxHash(network, hash) === null,
        'invalidTxHash' satisfies FormErrorKey,
      ),
    ),
  });
}
