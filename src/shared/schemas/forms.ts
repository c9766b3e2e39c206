/**
 * The buy forms of spec section 5, one valibot schema each, used by react-hook-form in the app
 * (through @hookform/resolvers/valibot). Field values are the strings the inputs hold; every
 * message is a key of the dictionary's `errors` section, translated when shown, so switching the
 * language re-translates an error already on screen.
 */
import * as v from 'valibot';
import { parseAmount } from '../amounts';
import { checkWalletAddress } from '../addresses';
import { CRYPTO_CURRENCIES, NETWORK_IDS } from '../networks';
import type { AmountBounds } from '../limits';

/** The keys of `errors` a form can show. */
export type FormErrorKey = 'fillAllFields' | 'minAmount' | 'maxAmount' | 'invalidWalletAddress';

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
