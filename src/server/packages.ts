/**
 * Packages loaded where they are first needed, not when the server starts: the PostgreSQL driver
 * on a server that runs on SQLite, and grammY on one without a bot, each hold megabytes of the
 * heap that such a server would carry for nothing (issue 22, item 5). Both are CommonJS (their
 * `import` is the same module), so `require` loads them synchronously at the point of use, and
 * types come from `import type` as usual.
 */
import { createRequire } from 'node:module';
import type * as AutoRetry from '@grammyjs/auto-retry';
import type * as Grammy from 'grammy';
import type * as Pg from 'pg';

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
