/** The order chat: its messages, what each side has read, and each order's verification code. */
import { sql, type Kysely } from 'kysely';
// Every step of this migration is schema-steps.ts's, named by its module.
import * as step from './schema-steps';

/**
 * The characters of a verification code, as src/shared/verification-code.ts had them when this
 * migration shipped: written here so that what it does never changes.
 */
const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const CODE_LENGTH = 6;

/** A new random code as an SQL expression of the dialect, evaluated anew for each row. */
function randomCode(dialect: step.Dialect): string {
  const pick =
    dialect === 'postgres'
      ? `substr('${ALPHABET}', 1 + floor(random() * 32)::integer, 1)`
      : // SQLite's random() is 64 bits; its low 31 as random (0011's SQLITE_RANDOM_VERSION).
        `substr('${ALPHABET}', 1 + ((random() & 2147483647) % 32), 1)`;
  return Array.from({ length: CODE_LENGTH }, () => pick).join(' || ');
}

/**
 * An order written without a code (by an instance of the version before, by hand) is given one
 * by the database; the server writes its own, from a cryptographic generator (orders/create.ts).
 */
async function codeOnInsert(db: Kysely<unknown>, dialect: step.Dialect): Promise<void> {
  if (dialect === 'sqlite') {
    await step.runInTurn(db, [
      `CREATE TRIGGER orders_verification_code AFTER INSERT ON orders
       FOR EACH ROW WHEN NEW.verification_code IS NULL
       BEGIN UPDATE orders SET verification_code = ${randomCode(dialect)} WHERE id = NEW.id; END`,
    ]);
    return;
  }
  await step.runInTurn(db, [
    `CREATE FUNCTION orders_verification_code() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF NEW.verification_code IS NULL THEN
         NEW.verification_code := ${randomCode(dialect)};
       END IF;
       RETURN NEW;
     END $$`,
    `CREATE TRIGGER orders_verification_code BEFORE INSERT ON orders
     FOR EACH ROW EXECUTE FUNCTION orders_verification_code()`,
  ]);
}

export const createOrderChat: step.DialectMigration = {
  // An order's conversation between its customer and the operators (chat/), kept for good with
  // the order: evidence, which no housekeeping removes. A message holds a text, a file checked
  // and stored as a receipt is (under RECEIPTS_DIR, named by `attachment_key`), or both. What each
  // side has read is the last message id it read, kept on the order, so that reading moves the
  // order's version (the status answer carries the customer's unread count) and a message is
  // counted unread while its id is above it. Each message is also an order event (`message_id`).
  async up(db, dialect) {
    const big = step.bigInteger(dialect);
    await step
      .orderRecordsTable(db, dialect, 'order_messages')
      .addColumn('author', 'text', step.required)
      .addColumn('author_id', big, step.required)
      .addColumn('text', 'text')
      .addColumn('attachment_name', 'text')
      .addColumn('attachment_type', 'text')
      .addColumn('attachment_size', 'integer')
      .addColumn('attachment_sha256', 'text')
      .addColumn('attachment_key', 'text', (c) => c.unique())
      .addColumn('created_at', big, step.required)
      .execute();
    // A chat read in order, and the unread count of one side: (order, author, id).
    await step.createIndex(db, 'order_messages_order', 'order_messages', [
      'order_id',
      'author',
      'id',
    ]);
    await step.addColumns(db, [
      ['orders', 'verification_code', 'text'],
      ['orders', 'customer_read_message_id', big, step.zero],
      ['orders', 'operator_read_message_id', big, step.zero],
      ['order_events', 'message_id', big],
    ]);
    await codeOnInsert(db, dialect);
    // Every order written so far is given its code.
    await sql`UPDATE orders SET verification_code = ${sql.raw(randomCode(dialect))}
      WHERE verification_code IS NULL`.execute(db);
    if (dialect === 'postgres') {
      await sql`ALTER TABLE orders ALTER COLUMN verification_code SET NOT NULL`.execute(db);
    }
  },
  async down(db, dialect) {
    await step.runInTurn(
      db,
      dialect === 'postgres'
        ? [
            'DROP TRIGGER orders_verification_code ON orders',
            'DROP FUNCTION orders_verification_code()',
          ]
        : ['DROP TRIGGER orders_verification_code'],
    );
    await step.dropColumns(db, [
      ['order_events', 'message_id'],
      ['orders', 'operator_read_message_id'],
      ['orders', 'customer_read_message_id'],
      ['orders', 'verification_code'],
    ]);
    await step.dropTables(db, ['order_messages']);
  },
};
