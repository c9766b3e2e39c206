// @ts-check
/**
 * Builds the app and the server only when the build is missing or older than its sources: run
 * at install (`prepare`) and before every `npm start` (`prestart`), so
 * that the build happens once and a start takes seconds. Two starts from one checkout do not
 * race on dist/: the first takes a lock (a directory, made atomically) and builds, the others
 * wait for it and then find the build fresh. Plain JavaScript with no dependency, as it must run
 * in a production install too (`npm ci --omit=dev`), where the build tools are absent and a
 * fresh build is all there is.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../..');
/** What the build is made from. */
const SOURCES = ['src', 'i18n', 'public', 'vite.config.ts', 'package-lock.json', 'tsconfig.json'];
/** What it makes: the app and the server's bundle. */
const OUTPUTS = ['dist/index.html', 'dist-server/main.js'];
/** i18n's generated files are written by the build itself: not a reason to build again. */
const WRITTEN_BY_THE_BUILD = /^i18n[\\/]i18n-[^\\/]+$/;
const LOCK = path.join(ROOT, '.build-lock');
/** A lock older than this was left by a build that was killed. */
const STALE_LOCK_MS = 10 * 60_000;

/**
 * The newest modification time under `entry` (a file or a directory), 0 when absent.
 * @param {string} entry
 * @returns {number}
 */
function newest(entry) {
  const full = path.join(ROOT, entry);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return WRITTEN_BY_THE_BUILD.test(entry) ? 0 : stat.mtimeMs;
  return fs
    .readdirSync(full)
    .reduce(
      (/** @type {number} */ latest, name) => Math.max(latest, newest(path.join(entry, name))),
      0,
    );
}

/** @returns {boolean} */
function isFresh() {
  const built = OUTPUTS.map((file) => path.join(ROOT, file));
  if (!built.every((file) => fs.existsSync(file))) return false;
  const oldestOutput = Math.min(...built.map((file) => fs.statSync(file).mtimeMs));
  return SOURCES.every((source) => newest(source) < oldestOutput);
}

/** @returns {boolean} */
function takeLock() {
  try {
    fs.mkdirSync(LOCK);
    return true;
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
    if (Date.now() - fs.statSync(LOCK).mtimeMs > STALE_LOCK_MS) {
      fs.rmSync(LOCK, { recursive: true, force: true });
      return takeLock();
    }
    return false;
  }
}

function build() {
  if (!fs.existsSync(path.join(ROOT, 'node_modules', 'vite'))) {
    console.error(
      'The build is missing or older than the sources, and the build tools are not installed ' +
        '(a production install?). Run `npm ci` and `npm run build`, then install for production.',
    );
    process.exit(1);
  }
  console.error('Building the app and the server (once: later starts reuse the build)…');
  const result = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

async function main() {
  while (!isFresh()) {
    if (takeLock()) {
      try {
        if (!isFresh()) build();
      } finally {
        fs.rmSync(LOCK, { recursive: true, force: true });
      }
      return;
    }
    // Another start is building: wait for it, then look again.
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

await main();
