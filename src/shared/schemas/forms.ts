/**
 * The forms, one valibot schema each, used by react-hook-form in the app
 * (through @hookform/resolvers/valibot). Field values are the strings the inputs hold; every field
 * is a pipe of ./fields.ts, the same the server's payload schemas are made of, and every message
 * is a key of the dictionary's `errors` section, translated when shown, so switching the language
 * re-translates an error already on screen.
 */
import * as v from 'valibot';
import { checkTxHash, checkWalletAddress } from '../addresses';
import type { AmountBounds } from '../limits';
import { CRYPTO_CURRENCIES, NETWORK_IDS, type NetworkId } from '../networks';
import {
  amountField,
  bankNameField,
  cardHolderField,
  cardNumberField,
  commentField,
  phoneField,
  requiredAmountField,
  txHashField,
  walletAddressField,
} from './fields';
import type { FormErrorKey } from './form-errors';
import { required } from './text';

const coin = v.picklist(CRYPTO_CURRENCIES);
const network = v.picklist(NETWORK_IDS);
const invalidWallet: FormErrorKey = 'invalidWalletAddress';

/**
 * A buy form (P2P, bank or office): the amount in the fiat currency, the crypto amount, coin,
 * network and wallet, and for an office buy the city. Required fields, the bounds of the method
 * and currency, and a wallet valid for the network (checksum included) are checked before the
 * order is sent; the server checks all of it again with the same pipes.
 */
export function buyFormSchema(bounds: AmountBounds, options: { readonly requireCity: boolean }) {
  return v.pipe(
    v.object({
      fiatAmount: requiredAmountField(bounds),
      cryptoAmount: v.string(),
      cryptoCurrency: coin,
      network,
      walletAddress: walletAddressField,
      cityId: options.requireCity ? required(v.string()) : v.string(),
    }),
    // Checked as soon as the network and the wallet are valid, whatever the other fields hold.
    v.forward(
      v.partialCheck(
        [['network'], ['walletAddress']],
        (form) => checkWalletAddress(form.network, form.walletAddress) === null,
        invalidWallet,
      ),
      ['walletAddress'],
    ),
  );
}

export type BuyFormValues = v.InferInput<ReturnType<typeof buyFormSchema>>;

/**
 * The P2P sell form: crypto amount, card number, holder and bank name are
 * required; the rouble total must lie within 3 000 – 500 000; phone and comment are optional.
 * The card must be a complete number with a valid checksum, so a typo cannot send the money to
 * a stranger, and the holder is written in Latin letters, as on the card.
 */
export function sellFormSchema(bounds: AmountBounds) {
  return v.object({
    cryptoAmount: required(v.pipe(v.string(), v.trim())),
    fiatAmount: amountField(bounds),
    cryptoCurrency: coin,
    network,
    cardNumber: cardNumberField,
    cardHolder: cardHolderField,
    bankName: bankNameField,
    phone: phoneField,
    comment: commentField,
  });
}

export type SellFormValues = v.InferInput<ReturnType<typeof sellFormSchema>>;

/** The transaction hash of a sell: required after trimming, valid for the network. */
export function txHashSchema(orderNetwork: NetworkId) {
  const invalidTxHash: FormErrorKey = 'invalidTxHash';
  return v.object({
    txHash: v.pipe(
      txHashField,
      v.check((hash) => checkTxHash(orderNetwork, hash) === null, invalidTxHash),
    ),
  });
}
