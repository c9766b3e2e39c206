/**
 * Packages loaded where first needed: pg, grammY and viem each hold megabytes of heap a server
 * not using them would carry for nothing. `require` loads them at the point of use.
 */
import { createRequire } from 'node:module';
import type * as AutoRetry from '@grammyjs/auto-retry';
import type * as Grammy from 'grammy';
import type * as Pg from 'pg';
import type * as Viem from 'viem';

const require = createRequire(import.meta.url);

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
