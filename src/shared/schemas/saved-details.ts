/**
 * The saved-details calls' payloads and answers (src/shared/api.ts, `API_PATHS.savedDetails`):
 * a wallet is saved with its network and a label, a card with what a sell pays out to (number,
 * holder, bank) and a label, each checked by the same field rules as the order forms' (./fields.ts).
 */
import * as v from 'valibot';
import { SAVED_LABEL_MAX } from '../limits';
import { NETWORK_IDS } from '../networks';
import { bankNameField, cardHolderField, cardNumberField, walletAddressField } from './fields';
import { orderIdField } from './params';
import { line } from './text';

/** A saved item's label as typed: one line, required, at most SAVED_LABEL_MAX characters. */
const labelField = line(SAVED_LABEL_MAX);

/** A save's body: what is saved, and the label it is kept under. */
const labelled = <E extends v.ObjectEntries>(entries: E) =>
  v.object({ ...entries, label: labelField });

export const SaveWalletSchema = labelled({
  network: v.picklist(NETWORK_IDS),
  address: walletAddressField,
});
export type SaveWalletPayload = v.InferOutput<typeof SaveWalletSchema>;

export const SaveCardSchema = labelled({
  cardNumber: cardNumberField,
  cardHolder: cardHolderField,
  bankName: bankNameField,
});
export type SaveCardPayload = v.InferOutput<typeof SaveCardSchema>;

/** Saving the card a sell of the caller's pays out to: the order names it, the server reads it. */
export const SaveOrderCardSchema = labelled({ orderId: orderIdField });
export type SaveOrderCardPayload = v.InferOutput<typeof SaveOrderCardSchema>;

export const RenameSavedSchema = v.object({ label: labelField });

/** The kinds of saved details, as their paths name them. */
export const SAVED_KINDS = ['wallets', 'cards'] as const;
export type SavedKind = (typeof SAVED_KINDS)[number];

/** `/api/saved-details/{kind}/{id}`: an unknown kind or an id that is no number is NOT_FOUND. */
export const SavedItemParamsSchema = v.object({
  kind: v.picklist(SAVED_KINDS, 'NOT_FOUND'),
  id: v.pipe(v.string('NOT_FOUND'), v.regex(/^[1-9]\d{0,15}$/, 'NOT_FOUND'), v.transform(Number)),
});

export const SavedWalletSchema = v.object({
  id: v.number(),
  network: v.picklist(NETWORK_IDS),
  address: v.string(),
  label: v.string(),
  createdAt: v.string(),
});
export type SavedWallet = v.InferOutput<typeof SavedWalletSchema>;

export const SavedCardSchema = v.object({
  id: v.number(),
  cardNumber: v.string(),
  cardHolder: v.string(),
  bankName: v.string(),
  label: v.string(),
  createdAt: v.string(),
});
export type SavedCard = v.InferOutput<typeof SavedCardSchema>;

/** Every saved wallet and card of the caller, most recently used first. */
export const SavedDetailsResponseSchema = v.object({
  wallets: v.array(SavedWalletSchema),
  cards: v.array(SavedCardSchema),
});
export type SavedDetailsResponse = v.InferOutput<typeof SavedDetailsResponseSchema>;
