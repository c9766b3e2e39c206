import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../../../src/shared/api';
import { APP_CONFIG_ELEMENT_ID } from '../../../src/shared/app-config';
import { TELEGRAM_WEB_CLIENTS } from '../../../src/server/platform/http/security-headers';
import { createTestApp, type TestApp } from '../../helpers/test-app';

/** A stand-in build: what Vite writes (index.html, hashed assets, public files). */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'exchange-dist-'));
fs.mkdirSync(path.join(dir, 'assets'));
fs.writeFileSync(
  path.join(dir, 'index.html'),
  '<!doctype html><html><head><script type="module" src="/assets/index-Ab12Cd34.js"></script>' +
    '</head><body><div id="root"></div></body></html>',
);
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4_000))})`;
fs.writeFileSync(path.join(dir, 'assets', 'index-Ab12Cd34.js'), SCRIPT);
// The copies the build writes beside each file (vite.config.ts, vite-plugin-compression2).
fs.writeFileSync(path.join(dir, 'assets', 'index-Ab12Cd34.js.br'), brotliCompressSync(SCRIPT));
fs.writeFileSync(path.join(dir, 'assets', 'index-Ab12Cd34.js.gz'), gzipSync(SCRIPT));
fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg/>');

let t: TestApp;
beforeAll(async () => {
  // A support link no real configuration allows (SUPPORT_URL must be a t.me link), to show that
  // no value can close the element it travels in.
  t = await createTestApp(
    { staticDir: dir, supportUrl: 'https://t.me/x?text=</script><script>alert(1)</script><!--' },
    { realClock: true },
  );
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('serving the built mini-app', () => {
  it('serves index.html at / revalidated on every load', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('id="root"');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('caches hashed assets for a year as immutable', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/index-Ab12Cd34.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('revalidates unhashed public files', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it.each(['/currencies', '/my-orders?orderId=abc', '/order/1b9d6bcd/waiting'])(
    'falls back to index.html for the client route %s',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('id="root"');
      expect(res.headers['cache-control']).toBe('no-cache');
    },
  );

  it('answers a missing file and an unknown API path with 404, not index.html', async () => {
    const file = await t.app.inject({ method: 'GET', url: '/assets/missing-0000.js' });
    expect(file.statusCode).toBe(404);
    const api = await t.app.inject({ method: 'GET', url: '/api/unknown' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('compressed as the browser takes it', () => {
  const decoded = (encoding: string | undefined, body: Buffer): string =>
    (encoding === 'br'
      ? brotliDecompressSync(body)
      : encoding === 'gzip'
        ? gunzipSync(body)
        : body
    ).toString();

  it.each([
    ['gzip, deflate, br', 'br'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['gzip', 'gzip'],
    ['identity', undefined],
    ['', undefined],
  ])('sends index.html, filled in once, to Accept-Encoding %j as %s', async (accept, encoding) => {
    const plain = await t.app.inject({ method: 'GET', url: '/' });
    const res = await t.app.inject({
      method: 'GET',
      url: '/currencies',
      headers: { 'accept-encoding': accept },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['vary']).toBe('accept-encoding');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['etag']).toBe(plain.headers['etag']);
    expect(decoded(encoding, res.rawPayload)).toBe(plain.body);
  });

  it.each([
    ['br', 'br'],
    ['gzip', 'gzip'],
  ])('sends a hashed asset as its %s copy, cached as immutable', async (accept, encoding) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/assets/index-Ab12Cd34.js',
      headers: { 'accept-encoding': accept },
    });
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['vary']).toBe('accept-encoding');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.rawPayload.length).toBeLessThan(200);
    expect(decoded(encoding, res.rawPayload)).toBe(SCRIPT);
  });

  it('sends a file the build left no copy of as it is', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/favicon.svg',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe('<svg/>');
  });
});

describe('security headers', () => {
  it("a page of the app may be framed by Telegram's web clients only, and loads nothing from elsewhere", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/my-orders' });
    const policy = String(res.headers['content-security-policy']);
    const directive = (name: string) =>
      policy
        .split(';')
        .find((d) => d.startsWith(`${name} `))
        ?.split(' ')
        .slice(1);
    expect(directive('frame-ancestors')).toEqual([...TELEGRAM_WEB_CLIENTS]);
    expect(directive('default-src')).toEqual(["'self'"]);
    expect(directive('script-src')).toEqual(["'self'"]);
    expect(directive('connect-src')).toEqual(["'self'"]);
    expect(directive('object-src')).toEqual(["'none'"]);
    // X-Frame-Options cannot name several framers; the policy's frame-ancestors decides.
    expect(res.headers['x-frame-options']).toBeUndefined();
  });

  it.each([
    ['a page', '/'],
    ['a hashed asset', '/assets/index-Ab12Cd34.js'],
    ['a public file', '/favicon.svg'],
    ['an API answer', API_PATHS.health],
    ['an API refusal', '/api/orders/active'],
    ['a missing file', '/assets/missing-0000.js'],
  ])('%s says nosniff and sends no referrer', async (_what, url) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
  });

  it('an API answer carries no page headers: the status poll stays small', async () => {
    const res = await t.app.inject({ method: 'GET', url: API_PATHS.health });
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect(res.headers['cross-origin-opener-policy']).toBeUndefined();
  });

  it('asks for HTTPS from then on (HSTS) only on a page asked for over HTTPS', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    // Through the reverse proxy on this machine, which terminated TLS.
    const secure = await t.app.inject({
      method: 'GET',
      url: '/',
      headers: { 'x-forwarded-proto': 'https' },
      remoteAddress: '127.0.0.1',
    });
    expect(secure.headers['strict-transport-security']).toBe('max-age=31536000');
    // A client on the internet cannot claim it.
    const forged = await t.app.inject({
      method: 'GET',
      url: '/',
      headers: { 'x-forwarded-proto': 'https' },
      remoteAddress: '203.0.113.7',
    });
    expect(forged.headers['strict-transport-security']).toBeUndefined();
  });
});

/** The text of index.html's configuration element, as the browser's parser would take it. */
function configElementText(html: string): string | undefined {
  const open = `<script type="application/json" id="${APP_CONFIG_ELEMENT_ID}">`;
  const start = html.indexOf(open);
  if (start === -1) return undefined;
  const text = html.slice(start + open.length);
  return text.slice(0, text.indexOf('</script>'));
}

describe('index.html carries the app-config answer, so the app starts without asking it', () => {
  it('at every page of the app, the same JSON as GET /api/app-config, inside the head', async () => {
    const config = await t.app.inject({ method: 'GET', url: API_PATHS.appConfig });
    for (const url of ['/', '/index.html', '/order/1b9d6bcd/waiting']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      const text = configElementText(res.body);
      expect(text, url).toBeDefined();
      expect(JSON.parse(text ?? '')).toEqual(config.json());
      expect(res.body.indexOf(APP_CONFIG_ELEMENT_ID)).toBeLessThan(res.body.indexOf('</head>'));
    }
  });

  it('escapes every < of the JSON as \\u003c: a value cannot close the element', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    const text = configElementText(res.body) ?? '';
    expect(text).not.toContain('<');
    expect(text).toContain('\\u003c/script>\\u003cscript>alert(1)');
    expect(res.body.match(/<script/g)).toHaveLength(2);
  });

  it('answers a reload that sends back its ETag with 304, still revalidated on every load', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/' });
    const etag = first.headers['etag'];
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await t.app.inject({
      method: 'GET',
      url: '/currencies',
      headers: { 'if-none-match': String(etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers['cache-control']).toBe('no-cache');
  });
});
