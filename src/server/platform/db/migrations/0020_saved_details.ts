/** A customer's saved wallets and cards, offered first by the order forms on any device. */
import {
  bigInteger,
  createIndex,
  dropTables,
  required,
  serialId,
  type DialectMigration,
} from './schema-steps';

export const createSavedDetails: DialectMigration = {
  async up(db, dialect) {
    const big = bigInteger(dialect);
    // A wallet is saved for one network; `address_key` is what tells two of a customer's apart
    // (shared/saved-details.ts: EVM addresses ignore case), so saving one again renames it.
    await db.schema
      .createTable('saved_wallets')
      .$call(serialId(dialect))
      .addColumn('user_id', big, required)
      .addColumn('network', 'text', required)
      .addColumn('address', 'text', required)
      .addColumn('address_key', 'text', required)
      .addColumn('label', 'text', required)
      .addColumn('created_at', big, required)
      .addColumn('used_at', big, required)
      .addUniqueConstraint('saved_wallets_unique', ['user_id', 'network', 'address_key'])
      .execute();
    // The card a sell pays out to, kept whole: the sell form fills it in from here. Shown
    // masked, never logged (no log line carries a request's body).
    await db.schema
      .createTable('saved_cards')
      .$call(serialId(dialect))
      .addColumn('user_id', big, required)
      .addColumn('card_number', 'text', required)
      .addColumn('card_holder', 'text', required)
      .addColumn('bank_name', 'text', required)
      .addColumn('label', 'text', required)
      .addColumn('created_at', big, required)
      .addColumn('used_at', big, required)
      .addUniqueConstraint('saved_cards_unique', ['user_id', 'card_number'])
      .execute();
    await createIndex(db, 'saved_wallets_user', 'saved_wallets', ['user_id', 'used_at']);
    await createIndex(db, 'saved_cards_user', 'saved_cards', ['user_id', 'used_at']);
  },
  async down(db) {
    await dropTables(db, ['saved_cards', 'saved_wallets']);
  },
};
