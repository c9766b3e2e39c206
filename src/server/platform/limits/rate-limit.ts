/**
 * Limits on the calls that write, per customer or per client address, counted in the database so
 * instances behind a load balancer share one count. Each call is one upsert.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { AppError } from '../errors';

export type LimitedCall = 'create' | 'receipt' | 'action' | 'chat';

/** Counted per client address: a demo session (it mints a customer), refused init data. */
export type AddressCall = 'demoSession' | 'refusedIdentity';

export const CALL_LIMITS: Readonly<Record<LimitedCall, number>> = {
  create: 10,
  receipt: 20,
  action: 60,
  chat: 20,
};

/**
 * Refused init data counts only when refused: customers behind one CGNAT address never lose a
 * call to a neighbour's bad ones, and a forger over the limit is told only to wait.
 */
export const ADDRESS_LIMITS: Readonly<Record<AddressCall, number>> = {
  demoSession: 30,
  refusedIdentity: 30,
};

const CALL_WINDOW_MS = 60_000;

export interface RateLimiter {
  hit(customerId: number, call: LimitedCall): Promise<void>;
  hitAddress(address: string, call: AddressCall): Promise<void>;
}

/** IPv6 by its /64, the least a network is given: no fresh count for each of its 2^64 addresses. */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped !== undefined && isIPv4(mapped)) return mapped;
  if (!isIPv6(address)) return address;
  // A zone (`fe80::1%eth0`) names an interface, not an address; an IPv4 tail is two groups.
  const written = address
    .replace(/%.*$/, '')
    .replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_tail, a: string, b: string, c: string, d: string) =>
      [
        ((Number(a) << 8) | Number(b)).toString(16),
        ((Number(c) << 8) | Number(d)).toString(16),
      ].join(':'),
    );
  const [head = '', tail] = written.split('::');
  const groups = (part: string | undefined) =>
    part === undefined || part === '' ? [] : part.split(':');
  const [left, right] = [groups(head), groups(tail)];
  const full = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  const prefix = full.slice(0, 4).map((group) => Number.parseInt(group, 16).toString(16));
  return `${prefix.join(':')}::/64`;
}

export function createRateLimiter(
  db: Kysely<Database>,
  now: () => number,
  limits: Readonly<Record<LimitedCall, number>> = CALL_LIMITS,
  addressLimits: Readonly<Record<AddressCall, number>> = ADDRESS_LIMITS,
): RateLimiter {
  /** Both expressions read the row as it was: a window that is over starts again now. */
  const nextWindow = (table: 'call_counts' | 'address_call_counts', at: number) => {
    const over = at - CALL_WINDOW_MS;
    const start = sql.ref(`${table}.window_start`);
    return {
      count: sql<number>`case when ${start} <= ${over} then 1 else ${sql.ref(`${table}.count`)} + 1 end`,
      window_start: sql<number>`case when ${start} <= ${over} then ${at} else ${start} end`,
    };
  };
  const refuseOver = (
    counted: { count: number; window_start: number },
    limit: number,
    at: number,
  ) => {
    if (counted.count > limit) {
      throw new AppError('RATE_LIMITED', {
        retryAfter: Math.ceil((counted.window_start + CALL_WINDOW_MS - at) / 1000),
      });
    }
  };
  return {
    async hit(customerId, call) {
      const at = now();
      const counted = await db
        .insertInto('call_counts')
        .values({ customer_id: customerId, call, window_start: at, count: 1 })
        .onConflict((oc) =>
          oc.columns(['customer_id', 'call']).doUpdateSet(nextWindow('call_counts', at)),
        )
        .returning(['count', 'window_start'])
        .executeTakeFirstOrThrow();
      refuseOver(counted, limits[call], at);
    },
    async hitAddress(address, call) {
      const at = now();
      const counted = await db
        .insertInto('address_call_counts')
        .values({ address: addressKey(address), call, window_start: at, count: 1 })
        .onConflict((oc) =>
          oc.columns(['address', 'call']).doUpdateSet(nextWindow('address_call_counts', at)),
        )
        .returning(['count', 'window_start'])
        .executeTakeFirstOrThrow();
      refuseOver(counted, addressLimits[call], at);
    },
  };
}

/** Forgets at most `limit` windows long over; returns how many. */
export async function pruneCallCounts(
  db: Kysely<Database>,
  now: number,
  limit = 1_000,
): Promise<number> {
  const over = now - CALL_WINDOW_MS;
  const customers = await db
    .deleteFrom('call_counts')
    .where((eb) =>
      eb(
        eb.refTuple('customer_id', 'call'),
        'in',
        eb
          .selectFrom('call_counts as over')
          .select(['over.customer_id', 'over.call'])
          .where('over.window_start', '<=', over)
          .limit(limit)
          .$asTuple('customer_id', 'call'),
      ),
    )
    .executeTakeFirst();
  const pruned = Number(customers.numDeletedRows);
  if (pruned >= limit) return pruned;
  const addresses = await db
    .deleteFrom('address_call_counts')
    .where((eb) =>
      eb(
        eb.refTuple('address', 'call'),
        'in',
        eb
          .selectFrom('address_call_counts as over')
          .select(['over.address', 'over.call'])
          .where('over.window_start', '<=', over)
          .limit(limit - pruned)
          .$asTuple('address', 'call'),
      ),
    )
    .executeTakeFirst();
  return pruned + Number(addresses.numDeletedRows);
}
