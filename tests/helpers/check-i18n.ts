/**
 * The i18n check of `npm test`: the generated typesafe-i18n files are current (the generator is
 * run on a copy of the dictionaries and its output compared with what is committed), and en has
 * every key of ru (the base locale) and no other, none of them empty, and every key is read by
 * the app or the server (`LL.<section>.<key>`), except the sections read by a computed key
 * (`LL.errors[problem]`), which the statuses' display labels and the error codes fill.
 *
 * Namespaces (`i18n/<locale>/<namespace>/index.ts`, loaded on demand, read as
 * `LL.<namespace>.<key>`) are checked as sections of the dictionary they extend: en has the
 * namespaces of ru and no other, with the same keys, all of them used.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import en from '../../i18n/en';
import ru from '../../i18n/ru';

const root = path.resolve(import.meta.dirname, '../..');
const problems: string[] = [];

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'i18n-check-'));
try {
  fs.copyFileSync(path.join(root, '.typesafe-i18n.json'), path.join(work, '.typesafe-i18n.json'));
  fs.cpSync(path.join(root, 'i18n'), path.join(work, 'i18n'), { recursive: true });
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(work, 'node_modules'));
  const run = spawnSync(path.join(root, 'node_modules/.bin/typesafe-i18n'), ['--no-watch'], {
    cwd: work,
    encoding: 'utf8',
  });
  if (run.status !== 0) problems.push(`typesafe-i18n failed:\n${run.stdout}${run.stderr}`);
  const generated = fs.readdirSync(path.join(work, 'i18n')).filter((f) => f.startsWith('i18n-'));
  for (const file of generated) {
    const fresh = fs.readFileSync(path.join(work, 'i18n', file), 'utf8');
    const committedPath = path.join(root, 'i18n', file);
    const committed = fs.existsSync(committedPath) ? fs.readFileSync(committedPath, 'utf8') : '';
    if (fresh !== committed) {
      problems.push(`i18n/${file} is out of date: run \`npm run i18n\` and commit the result`);
    }
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}

type Tree = { readonly [key: string]: string | Tree };

/** The namespaces of a locale: the folders of `i18n/<locale>/` that hold an index.ts. */
function namespacesOf(locale: string): string[] {
  return fs
    .readdirSync(path.join(root, 'i18n', locale), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .filter((name) => fs.existsSync(path.join(root, 'i18n', locale, name, 'index.ts')))
    .sort();
}

/** A locale's whole dictionary: its root and every namespace under the namespace's name. */
async function dictionary(locale: string, rootDictionary: Tree): Promise<Tree> {
  const whole: Record<string, string | Tree> = { ...rootDictionary };
  for (const namespace of namespacesOf(locale)) {
    if (namespace in whole)
      problems.push(`${locale} has ${namespace} both as a key and a namespace`);
    const file = path.join(root, 'i18n', locale, namespace, 'index.ts');
    const loaded = (await import(file)) as { readonly default: Tree };
    whole[namespace] = loaded.default;
  }
  return whole;
}

for (const missing of namespacesOf('ru').filter((ns) => !namespacesOf('en').includes(ns))) {
  problems.push(`en is missing the namespace ${missing} (i18n/en/${missing}/index.ts)`);
}
for (const extra of namespacesOf('en').filter((ns) => !namespacesOf('ru').includes(ns))) {
  problems.push(`en has the namespace ${extra}, which ru (the base) does not`);
}
const ruWhole = await dictionary('ru', ru as Tree);
const enWhole = await dictionary('en', en);

function compare(base: Tree, other: Tree, trail: string): void {
  for (const [key, value] of Object.entries(base)) {
    const here = `${trail}${key}`;
    const theirs = other[key];
    if (theirs === undefined) {
      problems.push(`en is missing ${here}`);
    } else if (typeof value === 'string') {
      if (typeof theirs !== 'string') problems.push(`en ${here} is not a text`);
      else if (theirs.trim() === '') problems.push(`en ${here} is empty`);
      if (value.trim() === '') problems.push(`ru ${here} is empty`);
    } else if (typeof theirs === 'string') {
      problems.push(`en ${here} is a text where ru has a group`);
    } else {
      compare(value, theirs, `${here}.`);
    }
  }
  for (const key of Object.keys(other)) {
    if (!(key in base)) problems.push(`en has ${trail}${key}, which ru (the base) does not`);
  }
}

compare(ruWhole, enWhole, '');

/** Every source file of the app and the server, as one text. */
function sources(dir: string): string {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .map((entry) => {
      const at = path.join(dir, entry.name);
      if (entry.isDirectory()) return sources(at);
      return /\.tsx?$/.test(entry.name) ? fs.readFileSync(at, 'utf8') : '';
    })
    .join('\n');
}
const code = sources(path.join(root, 'src'));
const computed = new Set([...code.matchAll(/LL\.(\w+)(?:\[| as )/g)].map((m) => m[1]));
for (const [section, keys] of Object.entries(ruWhole)) {
  if (computed.has(section) || typeof keys === 'string') continue;
  for (const key of Object.keys(keys)) {
    if (!new RegExp(`\\b${section}\\.${key}\\b`).test(code)) {
      problems.push(`${section}.${key} is not used by the app or the server: use it or remove it`);
    }
  }
}

if (problems.length > 0) {
  console.error(`i18n check failed:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}
console.log('i18n check: generated files current; en and ru have the same keys, all of them used.');
