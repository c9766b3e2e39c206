/**
 * Packages loaded where they are first needed, not when the server starts: the PostgreSQL driver
 * on a server that runs on SQLite, grammY on one without a bot, and viem on one that reads no EVM
 * chain each hold megabytes of the heap (3, 4.5 and 7.5 MB) that such a server would carry for
 * nothing. `require` loads them synchronously at the point of use (pg and
 * grammY are CommonJS, their `import` the same module; viem ships a CommonJS build beside its
 * ES modules, and nothing of ours compares its classes across the two), and types come from
 * `import type` as usual.
 */
import { createRequire } from 'node:module';
import type * as AutoRetry from '@grammyjs/auto-retry';
import type * as Grammy from 'grammy';
import type * as Pg from 'pg';
import type * as Viem from 'viem';

const require = createRequire(import.meta.url);

/** Whether a package can be loaded from here. */
export function installed(name: string): boolean {
  try {
    require.resolve(name);
    return true;
  } catch {
    return false;
  }
}

/** The package `name`, loaded on the first call; `T` is its type, from an `import type`. */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- T is what require gives, which TypeScript cannot know
function loadedOnUse<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(name) as T);
}

export const pgPackage = loadedOnUse<typeof Pg>('pg');
export const grammyPackage = loadedOnUse<typeof Grammy>('grammy');
export const autoRetryPackage = loadedOnUse<typeof AutoRetry>('@grammyjs/auto-retry');
export const viemPackage = loadedOnUse<typeof Viem>('viem');
