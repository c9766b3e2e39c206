/** An order's version as a random number, moved on also by a change of its office or city. */
import { sql, type Kysely } from 'kysely';
import {
  POSTGRES_COUNTED_VERSION,
  SQLITE_COUNTED_VERSIONS,
  sqliteVersionTriggers,
} from './0009_order_version';
import { anyChanged, runInTurn, type DialectMigration } from './schema-steps';

/** What a customer reads of an office and of its city (orders/order-view.ts: `officeWithCity`). */
const OFFICE_VISIBLE_COLUMNS = [
  'city_id',
  'address_ru',
  'address_en',
  'working_hours_ru',
  'working_hours_en',
  'phone',
  'map_link',
];
const CITY_VISIBLE_COLUMNS = ['name_ru', 'name_en'];

/** A new version on SQLite: its `random()` is 64 bits, whose low 31 are as random. */
export const SQLITE_RANDOM_VERSION = '(random() & 2147483647)';

async function postgresUp(db: Kysely<unknown>): Promise<void> {
  await runInTurn(db, [
    `CREATE OR REPLACE FUNCTION orders_next_version() RETURNS trigger
     LANGUAGE plpgsql AS $$
     BEGIN NEW.version := floor(random() * 2147483647)::integer; RETURN NEW; END $$`,
    `CREATE FUNCTION offices_touch_orders() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF TG_TABLE_NAME = 'offices' THEN
         UPDATE orders SET version = version WHERE office_id = NEW.id;
       ELSE
         UPDATE orders SET version = version WHERE office_id IN
           (SELECT id FROM offices WHERE city_id = NEW.id);
       END IF;
       RETURN NULL;
     END $$`,
    `CREATE TRIGGER offices_order_version AFTER UPDATE ON offices FOR EACH ROW
     WHEN (${anyChanged('postgres', OFFICE_VISIBLE_COLUMNS)})
     EXECUTE FUNCTION offices_touch_orders()`,
    `CREATE TRIGGER cities_order_version AFTER UPDATE ON cities FOR EACH ROW
     WHEN (${anyChanged('postgres', CITY_VISIBLE_COLUMNS)})
     EXECUTE FUNCTION offices_touch_orders()`,
  ]);
}

async function sqliteUp(db: Kysely<unknown>): Promise<void> {
  const next = SQLITE_RANDOM_VERSION;
  await runInTurn(db, [
    'DROP TRIGGER orders_version',
    'DROP TRIGGER receipts_added',
    'DROP TRIGGER receipts_removed',
    ...sqliteVersionTriggers(next, next),
    `CREATE TRIGGER offices_order_version AFTER UPDATE ON offices
     FOR EACH ROW WHEN ${anyChanged('sqlite', OFFICE_VISIBLE_COLUMNS)}
     BEGIN UPDATE orders SET version = ${next} WHERE office_id = NEW.id; END`,
    `CREATE TRIGGER cities_order_version AFTER UPDATE ON cities
     FOR EACH ROW WHEN ${anyChanged('sqlite', CITY_VISIBLE_COLUMNS)}
     BEGIN UPDATE orders SET version = ${next} WHERE office_id IN
       (SELECT id FROM offices WHERE city_id = NEW.id); END`,
  ]);
}

export const versionsNeverRepeat: DialectMigration = {
  // A version is a random number, not a count: a count starts again from an earlier value
  // after a backup is restored or on a replica that lagged, and the next change then repeats a
  // version an app or a server's kept answer already holds for another state. 31 bits fit
  // PostgreSQL's integer column as it is (no rewrite, nothing for a running instance's plans to
  // trip on); the status ETag itself is the answer's digest (orders/status/status-answers.ts),
  // so a repeat could at most cost one rebuilt answer.
  //
  // An office or city whose customer-visible words change (the seed keeps them in step with
  // platform/db/seed/offices.ts at every start) moves on the orders reserved there, so no
  // instance answers them from before the change.
  async up(db, dialect) {
    await (dialect === 'postgres' ? postgresUp(db) : sqliteUp(db));
    // The versions so far were counts: a count held from before stays apart from any new one.
    await sql`UPDATE orders SET version = version`.execute(db);
  },
  async down(db, dialect) {
    await runInTurn(
      db,
      dialect === 'postgres'
        ? [
            'DROP TRIGGER cities_order_version ON cities',
            'DROP TRIGGER offices_order_version ON offices',
            'DROP FUNCTION offices_touch_orders()',
            `CREATE OR REPLACE FUNCTION ${POSTGRES_COUNTED_VERSION}`,
          ]
        : [
            'DROP TRIGGER cities_order_version',
            'DROP TRIGGER offices_order_version',
            'DROP TRIGGER receipts_removed',
            'DROP TRIGGER receipts_added',
            'DROP TRIGGER orders_version',
            ...SQLITE_COUNTED_VERSIONS,
          ],
    );
  },
};
