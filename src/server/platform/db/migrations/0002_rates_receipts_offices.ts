/** Rates and their spreads, the receipts customers upload, and the cities and offices of cash. */
import {
  addColumns,
  bigInteger,
  createIndex,
  dropColumns,
  dropTables,
  required,
  type DialectMigration,
} from './schema-steps';

export const createRatesReceiptsOffices: DialectMigration = {
  async up(db, dialect) {
    const big = bigInteger(dialect);
    await db.schema
      .createTable('rates')
      .addColumn('fiat', 'text', required)
      .addColumn('crypto', 'text', required)
      .addColumn('base_rate_units', big, required)
      .addColumn('updated_at', big, required)
      .addColumn('updated_by', big)
      .addPrimaryKeyConstraint('rates_pk', ['fiat', 'crypto'])
      .execute();
    await db.schema
      .createTable('rate_spreads')
      .addColumn('payment_method', 'text', required)
      .addColumn('operation', 'text', required)
      .addColumn('spread_bp', 'integer', required)
      .addColumn('updated_at', big, required)
      .addColumn('updated_by', big)
      .addPrimaryKeyConstraint('rate_spreads_pk', ['payment_method', 'operation'])
      .execute();

    await db.schema
      .createTable('receipts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
      .addColumn('file_name', 'text', required)
      .addColumn('mime_type', 'text', required)
      .addColumn('size_bytes', 'integer', required)
      .addColumn('sha256', 'text', required)
      .addColumn('storage_key', 'text', required)
      .addColumn('uploaded_at', big, required)
      .execute();
    await createIndex(db, 'receipts_order', 'receipts', ['order_id']);
    await createIndex(db, 'receipts_sha256', 'receipts', ['sha256']);

    await db.schema
      .createTable('cities')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name_ru', 'text', required)
      .addColumn('name_en', 'text', required)
      .addColumn('country_code', 'text', required)
      .addColumn('currencies', 'text', required)
      .addColumn('position', 'integer', required)
      .execute();
    await db.schema
      .createTable('offices')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('city_id', 'text', (c) => c.notNull().references('cities.id'))
      .addColumn('address_ru', 'text', required)
      .addColumn('address_en', 'text', required)
      .addColumn('working_hours_ru', 'text', required)
      .addColumn('working_hours_en', 'text', required)
      .addColumn('phone', 'text', required)
      .addColumn('map_link', 'text', required)
      .addColumn('position', 'integer', required)
      .execute();

    await addColumns(db, [
      ['orders', 'office_id', 'text'],
      ['orders', 'deadline_alerted_at', big],
    ]);
  },
  async down(db) {
    await dropColumns(db, [
      ['orders', 'deadline_alerted_at'],
      ['orders', 'office_id'],
    ]);
    await dropTables(db, ['offices', 'cities', 'receipts', 'rate_spreads', 'rates']);
  },
};
