/**
 * `POST /api/orders/create` payloads of spec section 3, as the server checks them. The shape
 * depends on type and method: a buy carries the customer's wallet (and an office buy its city),
 * a sell carries the card to pay out to. Amount limits, networks, wallet checksums and the rate
 * are checked by the order service against its own data, after this shape check.
 */
import * as v from 'valibot';
import { isValidCardNumber } from '../cards';
import { CRYPTO_CURRENCIES, NETWORK_IDS } from '../networks';
import { line, lineText, paragraphText, SlugSchema } from './text';

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

export const BuyOrderSchema = v.looseObject({
  ...common,
  type: v.literal('BUY'),
  paymentMethod: v.picklist(['P2P', 'BANK_ACCOUNT']),
  walletAddress: line(128),
});

export const OfficeOrderSchema = v.looseObject({
  ...common,
  type: v.literal('BUY'),
  paymentMethod: v.literal('OFFICE'),
  walletAddress: line(128),
  cityId: SlugSchema,
});

export const SellOrderSchema = v.looseObject({
  ...common,
  type: v.literal('SELL'),
  paymentMethod: v.literal('P2P'),
  cardNumber: v.pipe(v.string(), v.check(isValidCardNumber)),
  cardHolder: v.pipe(line(64), v.regex(/^[A-Za-z][A-Za-z .'-]*$/)),
  bankName: line(64),
  phone: v.pipe(v.optional(lineText(32), ''), v.regex(/^(\+?[\d ()-]{7,20})?$/)),
  comment: v.optional(paragraphText(500), ''),
});

/** Any order a customer can create. */
export const CreateOrderSchema = v.union([BuyOrderSchema, OfficeOrderSchema, SellOrderSchema]);
export type CreateOrderPayload = v.InferOutput<typeof CreateOrderSchema>;
export type CreateOrderInput = v.InferInput<typeof CreateOrderSchema>;
