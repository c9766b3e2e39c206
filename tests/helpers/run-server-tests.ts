/**
 * Runs the server suite on SQLite, then on PostgreSQL when TEST_DATABASE_URL is set, and says
 * plainly when it is not.
 */
import { spawnSync } from 'node:child_process';

function run(kind: 'sqlite' | 'postgres'): number {
  console.log(`\n=== server tests on ${kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'} ===`);
  const result = spawnSync('npx', ['vitest', 'run', '--project', 'server'], {
    stdio: 'inherit',
    env: { ...process.env, TEST_DB: kind },
  });
  return result.status ?? 1;
}

let failed = run('sqlite') !== 0;
if (process.env['TEST_DATABASE_URL'] === undefined || process.env['TEST_DATABASE_URL'] === '') {
  console.log(
    '\n=== server tests on PostgreSQL: SKIPPED, TEST_DATABASE_URL is not set ' +
      '(.ci/run starts a PostgreSQL server and sets it) ===',
  );
} else {
  failed = run('postgres') !== 0 || failed;
}
process.exit(failed ? 1 : 0);
