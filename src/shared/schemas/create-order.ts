/**
 * `POST /api/orders/create` payloads, as the server checks them. The shape
 * depends on type and method: a buy carries the customer's wallet (and an office buy its city),
 * a sell carries the card to pay out to. Its fields are the pipes of ./fields.ts, the same the
 * app's forms are made of. Amount limits, networks, wallet checksums and the rate
 * are checked by the order service against its own data, after this shape check.
 */
import * as v from 'valibot';
import { CRYPTO_CURRENCIES, NETWORK_IDS } from '../networks';
import {
  bankNameField,
  cardHolderField,
  cardNumberField,
  commentField,
  phoneField,
  walletAddressField,
} from './fields';
import { SlugSchema } from './text';

const positiveAmount = v.pipe(v.number(), v.finite(), v.minValue(0), v.maxValue(1e12));

const common = {
  amount: v.optional(positiveAmount),
  currency: v.pipe(v.string(), v.regex(/^[A-Z]{3}$/)),
  cryptoCurrency: v.picklist(CRYPTO_CURRENCIES),
  network: v.picklist(NETWORK_IDS),
  rate: v.pipe(v.number(), v.finite(), v.minValue(0), v.maxValue(1e9)),
  totalRub: positiveAmount,
  telegramInitData: v.optional(v.string()),
};

const BuyOrderSchema = v.looseObject({
  ...common,
  type: v.literal('BUY'),
  paymentMethod: v.picklist(['P2P', 'BANK_ACCOUNT']),
  walletAddress: walletAddressField,
});

const OfficeOrderSchema = v.looseObject({
  ...common,
  type: v.literal('BUY'),
  paymentMethod: v.literal('OFFICE'),
  walletAddress: walletAddressField,
  cityId: SlugSchema,
});

export const SellOrderSchema = v.looseObject({
  ...common,
  type: v.literal('SELL'),
  paymentMethod: v.literal('P2P'),
  cardNumber: cardNumberField,
  cardHolder: cardHolderField,
  bankName: bankNameField,
  phone: v.optional(phoneField, ''),
  comment: v.optional(commentField, ''),
});

/** Any order a customer can create. */
export const CreateOrderSchema = v.union([BuyOrderSchema, OfficeOrderSchema, SellOrderSchema]);
export type CreateOrderPayload = v.InferOutput<typeof CreateOrderSchema>;
export type CreateOrderInput = v.InferInput<typeof CreateOrderSchema>;
