/**
 * A query of fixed shape built and compiled once, then run with each call's values (building and
 * compiling a Kysely query costs more than SQLite running it). For the hot paths
 * only: the shape may not depend on the values, and each value must be a plain parameter (an
 * `=` comparison, say), never a list that the builder would expand.
 */
import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema';

/** Stands for the i-th value while the query is compiled. */
const slot = (i: number): string => `\u0000compiled-once:${i}\u0000`;

export function compiledOnce<A extends readonly (string | number)[], R>(
  build: (db: Kysely<Database>, ...values: A) => Compilable<R>,
): (db: Kysely<Database>, ...values: A) => Promise<R[]> {
  const compiled = new WeakMap<
    Kysely<Database>,
    { readonly query: CompiledQuery<R>; readonly places: readonly number[] }
  >();
  return async (db, ...values) => {
    let known = compiled.get(db);
    if (known === undefined) {
      // The builder sees stand-ins of the values' place; typed as the values, which it only passes on.
      const standIns = values.map((_, i) => slot(i)) as unknown as A;
      const query = build(db, ...standIns).compile();
      // For each parameter, the value it takes (-1: a constant of the query itself).
      const places = query.parameters.map((p) =>
        typeof p === 'string' ? values.findIndex((_, i) => p === slot(i)) : -1,
      );
      values.forEach((_, i) => {
        if (!places.includes(i)) throw new Error(`compiledOnce: value ${i} is not a parameter`);
      });
      known = { query, places };
      compiled.set(db, known);
    }
    const { query, places } = known;
    const parameters = query.parameters.map((p, n) => {
      const place = places[n] ?? -1;
      return place === -1 ? p : values[place];
    });
    return (await db.executeQuery<R>({ ...query, parameters })).rows;
  };
}
