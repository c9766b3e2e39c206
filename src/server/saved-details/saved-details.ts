/**
 * A customer's saved wallets and cards, most recent first; saving one again renames it and brings
 * it first. Another customer's id is NOT_FOUND, as if it did not exist.
 */
import type { Kysely } from 'kysely';
import { checkWalletAddress } from '../../shared/addresses';
import { SAVED_CARDS_MAX, SAVED_WALLETS_MAX } from '../../shared/limits';
import { walletKey } from '../../shared/saved-details';
import type {
  SaveCardPayload,
  SaveOrderCardPayload,
  SaveWalletPayload,
  SavedDetailsResponse,
  SavedKind,
} from '../../shared/schemas/saved-details';
import type { ServerContext } from '../platform/context';
import type { Database } from '../platform/db/schema';
import { AppError } from '../platform/errors';
import { orderRow } from '../orders';
import { readPayoutCard } from '../orders';

const KINDS = {
  wallets: { table: 'saved_wallets', max: SAVED_WALLETS_MAX },
  cards: { table: 'saved_cards', max: SAVED_CARDS_MAX },
} as const satisfies Record<SavedKind, { table: keyof Database; max: number }>;

const iso = (ms: number) => new Date(ms).toISOString();

export async function savedDetails(
  db: Kysely<Database>,
  userId: number,
): Promise<SavedDetailsResponse> {
  const [wallets, cards] = await Promise.all([
    db
      .selectFrom('saved_wallets')
      .select(['id', 'network', 'address', 'label', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('used_at', 'desc')
      .orderBy('id', 'desc')
      .execute(),
    db
      .selectFrom('saved_cards')
      .select(['id', 'card_number', 'card_holder', 'bank_name', 'label', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('used_at', 'desc')
      .orderBy('id', 'desc')
      .execute(),
  ]);
  return {
    wallets: wallets.map(({ created_at, ...wallet }) => ({
      ...wallet,
      createdAt: iso(created_at),
    })),
    cards: cards.map((card) => ({
      id: card.id,
      cardNumber: card.card_number,
      cardHolder: card.card_holder,
      bankName: card.bank_name,
      label: card.label,
      createdAt: iso(card.created_at),
    })),
  };
}

/** A new one past the limit is refused (its transaction undone); one saved again adds none. */
async function withinLimit(db: Kysely<Database>, userId: number, kind: SavedKind): Promise<void> {
  const { table, max } = KINDS[kind];
  const { count } = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  if (Number(count) > max) throw new AppError('SAVED_DETAILS_FULL', { max });
}

/** Checked as a typed one is. */
export async function saveWallet(
  ctx: ServerContext,
  userId: number,
  { network, address, label }: SaveWalletPayload,
): Promise<SavedDetailsResponse> {
  if (checkWalletAddress(network, address) !== null) throw new AppError('INVALID_WALLET_ADDRESS');
  const key = walletKey(network, address);
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('saved_wallets')
      .values({
        user_id: userId,
        network,
        address,
        address_key: key,
        label,
        created_at: now,
        used_at: now,
      })
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'network', 'address_key'])
          .doUpdateSet({ address, label, used_at: now }),
      )
      .execute();
    await withinLimit(trx, userId, 'wallets');
  });
  return savedDetails(ctx.db, userId);
}

export async function saveCard(
  ctx: ServerContext,
  userId: number,
  { cardNumber, cardHolder, bankName, label }: SaveCardPayload,
): Promise<SavedDetailsResponse> {
  const now = ctx.now();
  const card = { card_holder: cardHolder.toUpperCase(), bank_name: bankName, label, used_at: now };
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('saved_cards')
      .values({ user_id: userId, card_number: cardNumber, created_at: now, ...card })
      .onConflict((oc) => oc.columns(['user_id', 'card_number']).doUpdateSet(card))
      .execute();
    await withinLimit(trx, userId, 'cards');
  });
  return savedDetails(ctx.db, userId);
}

/** Read from the order on the server, so the card's number never travels back to the app. */
export async function saveOrderCard(
  ctx: ServerContext,
  userId: number,
  { orderId, label }: SaveOrderCardPayload,
): Promise<SavedDetailsResponse> {
  const order = await orderRow(ctx.db, orderId, ['payout_card'], userId);
  const card = readPayoutCard(order.payout_card);
  if (card === null) throw new AppError('ORDER_NOT_FOUND');
  const { cardNumber, cardHolder, bankName } = card;
  return saveCard(ctx, userId, { cardNumber, cardHolder, bankName, label });
}

export async function renameSaved(
  ctx: ServerContext,
  userId: number,
  { kind, id }: { readonly kind: SavedKind; readonly id: number },
  label: string,
): Promise<SavedDetailsResponse> {
  const result = await ctx.db
    .updateTable(KINDS[kind].table)
    .set({ label })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw new AppError('NOT_FOUND');
  return savedDetails(ctx.db, userId);
}

export async function deleteSaved(
  ctx: ServerContext,
  userId: number,
  { kind, id }: { readonly kind: SavedKind; readonly id: number },
): Promise<SavedDetailsResponse> {
  const result = await ctx.db
    .deleteFrom(KINDS[kind].table)
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (result.numDeletedRows === 0n) throw new AppError('NOT_FOUND');
  return savedDetails(ctx.db, userId);
}
