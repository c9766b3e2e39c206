/** A customer's saved wallets and cards, offered first by the order forms on any device. */
import type { ColumnDataType, CreateTableBuilder, Kysely } from 'kysely';
import {
  bigInteger,
  createIndex,
  dropTables,
  required,
  serialId,
  type Dialect,
  type DialectMigration,
} from './schema-steps';

/**
 * A table of one kind of saved detail: its own text columns between the customer's id and
 * what every kind has (a label, when it was saved, when last saved again: the lists' order),
 * each row unique by `unique`.
 */
async function createSavedTable(
  db: Kysely<unknown>,
  dialect: Dialect,
  [name, columns, unique]: readonly [table: string, columns: readonly string[], unique: string[]],
): Promise<void> {
  const big: ColumnDataType = bigInteger(dialect);
  let table: CreateTableBuilder<string, string> = db.schema
    .createTable(name)
    .$call(serialId(dialect))
    .addColumn('user_id', big, required);
  for (const column of [...columns, 'label']) table = table.addColumn(column, 'text', required);
  await table
    .addColumn('created_at', big, required)
    .addColumn('used_at', big, required)
    .addUniqueConstraint(`${name}_unique`, ['user_id', ...unique])
    .execute();
  await createIndex(db, `${name}_user`, name, ['user_id', 'used_at']);
}

export const createSavedDetails: DialectMigration = {
  async up(db, dialect) {
    // A wallet is saved for one network; `address_key` is what tells two of a customer's apart
    // (shared/saved-details.ts: EVM addresses ignore case), so saving one again renames it.
    await createSavedTable(db, dialect, [
      'saved_wallets',
      ['network', 'address', 'address_key'],
      ['network', 'address_key'],
    ]);
    // The card a sell pays out to, kept whole: the sell form fills it in from here. Shown
    // masked, never logged (no log line carries a request's body).
    await createSavedTable(db, dialect, [
      'saved_cards',
      ['card_number', 'card_holder', 'bank_name'],
      ['card_number'],
    ]);
  },
  async down(db) {
    await dropTables(db, ['saved_cards', 'saved_wallets']);
  },
};
