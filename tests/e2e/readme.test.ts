/**
 * The documented commands, run as written, each in a scratch copy of the project so that its
 * build does not disturb the other browser tests: README.md's `npm start` with no configuration
 * (its `npm install` is CI's `npm ci`), and the real-bot start-up of docs/bot.md's "Connect a
 * real Telegram bot" with its placeholders filled in, up to the health check and the bot's first
 * calls to the Bot API (a local fake: CI reaches no Telegram). A newcomer copies them: one that
 * no longer works fails here.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_TOKEN, FakeBotApi } from '../helpers/fake-bot-api';
import { EVM_WALLET, TRON_WALLET } from '../helpers/lifecycle';
import { ServerProcess, freePort } from '../helpers/server-process';

const ROOT = path.resolve(import.meta.dirname, '../..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const BOT_DOC = fs.readFileSync(path.join(ROOT, 'docs', 'bot.md'), 'utf8');
/** npm start builds the app first. */
const START_MS = 180_000;

/** What the real-bot start-up's placeholders stand for, as a newcomer fills them in. */
const PLACEHOLDERS: Readonly<Record<string, string>> = {
  '<token>': FAKE_TOKEN,
  '<bot>': 'exchange_test_bot',
  '<your id>': '700000001',
  "<the group's id>": '-1001234567890',
  '<your Tron address>': TRON_WALLET,
  '<your 0x address>': EVM_WALLET,
};

/** The project as a newcomer has it, its dependencies linked rather than installed again. */
function scratchCopy(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'exchange-readme-'));
  for (const entry of [
    'package.json',
    'package-lock.json',
    'tsconfig.json',
    'vite.config.ts',
    '.typesafe-i18n.json',
    'src',
    'i18n',
    'public',
  ]) {
    fs.cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

let dir: string;
let server: ServerProcess | undefined;
beforeAll(() => {
  dir = scratchCopy();
});
afterAll(async () => {
  await server?.kill();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the documented commands, as written', () => {
  it(
    '`npm install && npm start`: the demo is served and says where to open it',
    { timeout: START_MS },
    async () => {
      const block = /```sh\n(npm install && npm start)\n```/.exec(README);
      expect(block, 'the README shows `npm install && npm start`').not.toBeNull();
      const port = await freePort();
      server = await ServerProcess.start({
        port,
        env: {},
        shell: { command: 'npm start', cwd: dir },
        readyTimeoutMs: START_MS,
      });
      const page = await fetch(`${server.url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
      expect(server.output).toContain(
        `Demo: open http://localhost:${port} as a customer and http://localhost:${port}/console as the operator`,
      );
      // Its database is where the README says: ./data/exchange.db.
      expect(fs.existsSync(path.join(dir, 'data', 'exchange.db'))).toBe(true);
      await server.kill();
      server = undefined;
    },
  );

  it(
    'a second `npm start` reuses the build: dist/ untouched, the health check answered at once',
    { timeout: START_MS },
    async () => {
      const built = ['dist/index.html', 'dist-server/main.js'].map((file) => path.join(dir, file));
      const before = built.map((file) => fs.statSync(file).mtimeMs);
      const began = Date.now();
      server = await ServerProcess.start({
        port: await freePort(),
        env: {},
        shell: { command: 'npm start', cwd: dir },
        readyTimeoutMs: START_MS,
      });
      console.log(`a second npm start answered its health check after ${Date.now() - began} ms`);
      expect(built.map((file) => fs.statSync(file).mtimeMs)).toEqual(before);
      expect(server.output).not.toContain('Building the app');
      await server.kill();
      server = undefined;
    },
  );

  it('a production install (`npm ci --omit=dev`) has everything the built server imports', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const bundle = fs.readFileSync(path.join(dir, 'dist-server', 'main.js'), 'utf8');
    const imported = new Set(
      [...bundle.matchAll(/(?:^import .* from |\bimport\()"([^".][^"]*)"/gm)]
        .map((m) => m[1] ?? '')
        .filter((name) => !name.startsWith('node:'))
        .map((name) =>
          name
            .split('/')
            .slice(0, name.startsWith('@') ? 2 : 1)
            .join('/'),
        ),
    );
    expect(imported.size).toBeGreaterThan(5);
    expect([...imported].filter((name) => pkg.dependencies[name] === undefined)).toEqual([]);
    // The build-if-stale check that `npm start` runs first is plain Node, with no package.
    const check = fs.readFileSync(
      path.join(ROOT, 'src/server/platform/build-if-stale.mjs'),
      'utf8',
    );
    expect([...check.matchAll(/^import .* from '([^']+)'/gm)].map((m) => m[1])).toEqual([
      'node:child_process',
      'node:fs',
      'node:path',
    ]);
  });

  it(
    'two `npm start` at once from one unbuilt checkout: one builds, the other waits, both serve the same build',
    { timeout: START_MS },
    async () => {
      const fresh = scratchCopy();
      const servers: ServerProcess[] = [];
      try {
        const ports = [await freePort(), await freePort()];
        servers.push(
          ...(await Promise.all(
            ports.map((port, i) =>
              ServerProcess.start({
                port,
                env: { SQLITE_PATH: path.join(fresh, `instance-${i}.db`) },
                shell: { command: 'npm start', cwd: fresh },
                readyTimeoutMs: START_MS,
              }),
            ),
          )),
        );
        const builds = servers.filter((s) => s.output.includes('Building the app')).length;
        expect(builds).toBe(1);
        const pages = await Promise.all(servers.map(async (s) => (await fetch(s.url)).text()));
        const script = (html: string) => /src="(\/assets\/index-[^"]+\.js)"/.exec(html)?.[1];
        expect(script(pages[0] ?? '')).toBeDefined();
        expect(script(pages[1] ?? '')).toBe(script(pages[0] ?? ''));
        for (const s of servers) {
          expect((await fetch(`${s.url}${script(pages[0] ?? '') ?? ''}`)).status).toBe(200);
        }
      } finally {
        for (const s of servers) await s.kill();
        fs.rmSync(fresh, { recursive: true, force: true });
      }
    },
  );

  it(
    'docs/bot.md\'s "Connect a real Telegram bot", pasted with real values: the server starts and its bot calls the Bot API',
    { timeout: START_MS },
    async () => {
      const line = /`(BOT_TOKEN=[^`]*npm start)`/.exec(BOT_DOC)?.[1];
      expect(line, 'docs/bot.md shows the real-bot start-up').toBeDefined();
      let command = line ?? '';
      for (const [placeholder, value] of Object.entries(PLACEHOLDERS)) {
        command = command.replaceAll(placeholder, value);
      }
      expect(command, 'every placeholder of docs/bot.md has a value here').not.toMatch(/<[^>]*>/);
      const api = await new FakeBotApi(FAKE_TOKEN).start();
      try {
        server = await ServerProcess.start({
          port: await freePort(),
          env: { TELEGRAM_API_ROOT: api.url, SQLITE_PATH: path.join(dir, 'bot.db') },
          shell: { command, cwd: dir },
          readyTimeoutMs: START_MS,
        });
        // Real mode: demo sign-in is off, and the bot is polling Telegram.
        const demo = await fetch(`${server.url}/api/demo/session`);
        expect(demo.status).toBe(404);
        await api.waitFor('getMe', 1, 20_000);
        await server.kill();
        server = undefined;
      } finally {
        await api.stop();
      }
    },
  );
});
