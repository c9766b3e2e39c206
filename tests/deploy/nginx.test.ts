/**
 * The deployment deploy/ ships, run: Debian's nginx with the shipped site,
 * deploy/nginx/exchange.conf, only its placeholders filled in, in front of two server instances
 * (the production bundle, as the systemd unit starts it) on one PostgreSQL database, the bot
 * taking its updates by webhook from a fake Bot API.
 * - a whole P2P buy through nginx over HTTPS, its requests spread over both instances, one of
 *   them killed (SIGKILL) halfway: every call is answered and the order completes;
 * - a 9 MB receipt passes nginx;
 * - an update posted to the webhook path with the secret token reaches the bot;
 * - the per-address limit counts the address nginx saw: an X-Forwarded-For the client sends
 *   neither resets nor changes its count;
 * - /api/metrics is refused, plain HTTP is sent to HTTPS, and nginx compresses nothing of the
 *   server's (a host's nginx.conf with gzip on for everything changes no answer).
 * It needs PostgreSQL (TEST_DATABASE_URL) and nginx (/usr/sbin/nginx): .ci/run installs both,
 * and without either the run is skipped, saying which is missing. The files' own checks run
 * always.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookSecret } from '../../src/server/notifications/bot';
import { EnvVariablesSchema } from '../../src/server/platform/config/config';
import { JSON_BODY_LIMIT_BYTES } from '../../src/server/platform/http/json-body';
import { RECEIPT_BODY_LIMIT_BYTES } from '../../src/server/receipts/receipt-json';
import { ADDRESS_LIMITS } from '../../src/server/platform/limits/rate-limit';
import {
  API_PATHS,
  type ApiErrorBody,
  type CreateOrderResponse,
  type OrderActionResponse,
  type OrderDetails,
  type RateResponse,
} from '../../src/shared/api';
import { RECEIPT_MAX_BYTES } from '../../src/shared/limits';
import { FAKE_TOKEN, FakeBotApi } from '../helpers/fake-bot-api';
import { authHeader, initDataFor } from '../helpers/identity';
import {
  CARD_REQUISITES,
  EVM_WALLET,
  OPERATOR,
  OPERATOR_PATHS,
  ORDER_KINDS,
  TRON_WALLET,
  createPayload,
  pngFile,
  receiptBody,
  txHashFor,
  type TestUser,
} from '../helpers/lifecycle';
import { ServerProcess, freePort, serverDatabase } from '../helpers/server-process';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SITE = path.join(ROOT, 'deploy/nginx/exchange.conf');
const UNIT = path.join(ROOT, 'deploy/systemd/exchange@.service');
const ENV_EXAMPLE = path.join(ROOT, 'deploy/systemd/env.example');

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((file) => fs.existsSync(file));
const DATABASE_URL = process.env['TEST_DATABASE_URL'] ?? '';
const MISSING =
  DATABASE_URL === ''
    ? 'TEST_DATABASE_URL is not set (several instances need PostgreSQL; .ci/run starts one)'
    : NGINX === undefined
      ? 'nginx is not installed (apt-get install nginx; .ci/run installs it)'
      : undefined;

// Said plainly, as the server tests say a skipped PostgreSQL run.
if (MISSING !== undefined) console.log(`deploy test against nginx: SKIPPED, ${MISSING}`);

const CUSTOMER: TestUser = { id: 310_000_001, first_name: 'Вера', language_code: 'ru' };
/** A receipt of 9 MB: a PNG's bytes, then padding (the type is read from the first bytes). */
const RECEIPT_BYTES = 9 * 1024 * 1024;
const JOURNEY_MS = 60_000;

describe("deploy/'s files", () => {
  it("the systemd unit starts what `npm start` starts: package.json's start command, with /usr/bin/node", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const execStart = /^ExecStart=(.*)$/m.exec(fs.readFileSync(UNIT, 'utf8'))?.[1];
    expect(execStart).toBe(pkg.scripts['start']?.replace(/^node /, '/usr/bin/node '));
  });

  it('the env example sets only variables the server reads, and never PORT (the instance name is its port)', () => {
    const names = [...fs.readFileSync(ENV_EXAMPLE, 'utf8').matchAll(/^#?([A-Z][A-Z0-9_]*)=/gm)].map(
      (m) => m[1] ?? '',
    );
    expect(names.length).toBeGreaterThan(5);
    const read = Object.keys(EnvVariablesSchema.entries);
    expect(names.filter((name) => !read.includes(name))).toEqual([]);
    expect(names).not.toContain('PORT');
  });

  it("nginx's body limits are the server's at most (it refuses first), and a receipt's holds 10 MB in base64", () => {
    const site = fs.readFileSync(SITE, 'utf8');
    const limit = (block: string) => {
      const [, size, unit] = /client_max_body_size (\d+)([km]);/.exec(block) ?? [];
      return Number(size) * (unit === 'm' ? 2 ** 20 : 2 ** 10);
    };
    const receipts = /location ~ \^\/api\/orders\/\[\^\/\]\+\/receipt\$ \{([^}]*)\}/.exec(
      site,
    )?.[1];
    expect(receipts, 'the site has a location for receipts').toBeDefined();
    const receiptLimit = limit(receipts ?? '');
    expect(receiptLimit).toBeLessThanOrEqual(RECEIPT_BODY_LIMIT_BYTES);
    expect(receiptLimit).toBeGreaterThan(Math.ceil(RECEIPT_MAX_BYTES / 3) * 4 + 1024);
    expect(limit(site)).toBeLessThanOrEqual(JSON_BODY_LIMIT_BYTES);
    expect(limit(site)).toBeGreaterThan(0);
  });
});

/** An answer through nginx. */
interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

const json = (answer: Answer): unknown => JSON.parse(answer.body);

/** The shipped site with its placeholders, and nothing else, filled in. */
function renderSite(values: {
  readonly instances: readonly [number, number];
  readonly http: number;
  readonly https: number;
  readonly cert: string;
  readonly key: string;
}): string {
  let site = fs.readFileSync(SITE, 'utf8');
  const fill = (placeholder: string, value: string) => {
    expect(site, `the site's placeholder ${placeholder}`).toContain(placeholder);
    site = site.replaceAll(placeholder, value);
  };
  fill('server 127.0.0.1:3001 ', `server 127.0.0.1:${values.instances[0]} `);
  fill('server 127.0.0.1:3002 ', `server 127.0.0.1:${values.instances[1]} `);
  fill('listen 80;', `listen 127.0.0.1:${values.http};`);
  fill('listen 443 ssl http2;', `listen 127.0.0.1:${values.https} ssl http2;`);
  fill('/etc/letsencrypt/live/exchange.example.com/fullchain.pem', values.cert);
  fill('/etc/letsencrypt/live/exchange.example.com/privkey.pem', values.key);
  fill('server_name exchange.example.com;', 'server_name localhost;');
  return site;
}

/**
 * nginx.conf as a host has it around the site (Debian's includes sites-enabled inside `http`),
 * in `dir`, with gzip on for every type: the site has to turn it off for itself. The access log
 * names the instance (or instances, when one failed) each request went to.
 */
function mainConfig(dir: string, site: string): string {
  const mimeTypes = '/etc/nginx/mime.types';
  return `
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  ${fs.existsSync(mimeTypes) ? `include ${mimeTypes};` : ''}
  default_type application/octet-stream;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  log_format upstreams '$request_method $uri $status [$upstream_addr]';
  access_log ${dir}/access.log upstreams;
  gzip on;
  gzip_types *;
  gzip_min_length 1;
  gzip_proxied any;
  include ${site};
}
`;
}

/** The requests nginx logged: method, path, status and the instances it tried, in order. */
function accessLog(dir: string) {
  return fs
    .readFileSync(path.join(dir, 'access.log'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [, method = '', uri = '', status = '', upstreams = ''] =
        /^(\S+) (\S+) (\d+) \[(.*)\]$/.exec(line) ?? [];
      return {
        method,
        uri,
        status: Number(status),
        ports: upstreams
          .split(', ')
          .filter((addr) => addr !== '' && addr !== '-')
          .map((addr) => Number(addr.split(':')[1])),
      };
    });
}

/** The requests a server instance logged (its JSON lines at LOG_LEVEL=info). */
function loggedRequests(server: ServerProcess): { url: string; ip: string }[] {
  return server.output.split('\n').flatMap((line) => {
    try {
      const entry = JSON.parse(line) as { req?: { url?: string; ip?: string } };
      return entry.req?.url === undefined ? [] : [{ url: entry.req.url, ip: entry.req.ip ?? '' }];
    } catch {
      return [];
    }
  });
}

describe.skipIf(MISSING !== undefined)(
  `nginx with deploy/'s site in front of two instances on PostgreSQL${MISSING === undefined ? '' : ` (skipped: ${MISSING})`}`,
  () => {
    /** What beforeAll started, stopped in reverse order however far it got. */
    const cleanups: (() => unknown)[] = [];
    let dir: string;
    let api: FakeBotApi;
    const instances: ServerProcess[] = [];
    let ports: [number, number];
    let httpPort: number;
    let httpsPort: number;
    let agent: https.Agent;

    /** A call through nginx over HTTPS, the self-signed certificate trusted for it alone. */
    const call = (
      method: 'GET' | 'POST',
      url: string,
      options: { headers?: Record<string, string>; body?: unknown; encoding?: string } = {},
    ): Promise<Answer> =>
      new Promise((resolve, reject) => {
        const body = options.body === undefined ? undefined : JSON.stringify(options.body);
        const request = https.request(
          {
            agent,
            host: '127.0.0.1',
            port: httpsPort,
            servername: 'localhost',
            method,
            path: url,
            headers: {
              host: `localhost:${httpsPort}`,
              'accept-encoding': options.encoding ?? 'identity',
              ...(body === undefined
                ? {}
                : {
                    'content-type': 'application/json',
                    'content-length': Buffer.byteLength(body),
                  }),
              ...options.headers,
            },
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () =>
              resolve({
                status: response.statusCode ?? 0,
                headers: response.headers,
                body: Buffer.concat(chunks).toString('utf8'),
              }),
            );
            response.on('error', reject);
          },
        );
        request.on('error', reject);
        request.end(body);
      });

    /** A call as `user`, signed with the bot's token now, as Telegram signs it. */
    const as = (user: TestUser, method: 'GET' | 'POST', url: string, body?: unknown) =>
      call(method, url, {
        headers: authHeader(initDataFor(user, { token: FAKE_TOKEN })),
        ...(body === undefined ? {} : { body }),
      });

    beforeAll(async () => {
      if (NGINX === undefined) return;
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'exchange-deploy-'));
      cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
      const nginxDir = path.join(dir, 'nginx');
      const receipts = path.join(dir, 'receipts');
      const staticDir = path.join(dir, 'static');
      for (const sub of [nginxDir, receipts, staticDir]) fs.mkdirSync(sub);
      // A page large enough for gzip to be worth it, had nginx the say.
      fs.writeFileSync(
        path.join(staticDir, 'index.html'),
        `<!doctype html><html><head><title>Exchange</title></head><body><div id="root">${'<p>Обмен</p>'.repeat(200)}</div></body></html>`,
      );
      const cert = path.join(nginxDir, 'cert.pem');
      const key = path.join(nginxDir, 'key.pem');
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-subj',
          '/CN=localhost',
          '-addext',
          'subjectAltName=DNS:localhost,IP:127.0.0.1',
          '-days',
          '1',
          '-keyout',
          key,
          '-out',
          cert,
        ],
        { stdio: 'ignore' },
      );
      agent = new https.Agent({ keepAlive: true, ca: fs.readFileSync(cert) });
      cleanups.push(() => agent.destroy());

      [ports, httpPort, httpsPort] = [
        [await freePort(), await freePort()],
        await freePort(),
        await freePort(),
      ];
      const site = path.join(nginxDir, 'exchange.conf');
      fs.writeFileSync(
        site,
        renderSite({ instances: ports, http: httpPort, https: httpsPort, cert, key }),
      );
      const conf = path.join(nginxDir, 'nginx.conf');
      fs.writeFileSync(conf, mainConfig(nginxDir, site));
      // Not as root, as nginx would be on a host: its workers would then be `nobody`, who
      // could not write here; the whole of nginx runs as `nobody` instead.
      const asUser =
        process.getuid?.() === 0
          ? (() => {
              const uid = Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }));
              const gid = Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' }));
              fs.chmodSync(dir, 0o755);
              for (const file of [nginxDir, cert, key, site, conf]) fs.chownSync(file, uid, gid);
              return { uid, gid };
            })()
          : {};
      const started = spawn(
        NGINX,
        ['-p', nginxDir, '-e', path.join(nginxDir, 'error.log'), '-c', conf, '-g', 'daemon off;'],
        {
          stdio: ['ignore', 'ignore', 'pipe'],
          ...asUser,
        },
      );
      let nginxErrors = '';
      started.stderr.on('data', (chunk: Buffer) => (nginxErrors += chunk.toString('utf8')));
      const nginxExit = new Promise((resolve) => started.once('exit', resolve));
      cleanups.push(async () => {
        started.kill('SIGTERM');
        await nginxExit;
      });

      api = await new FakeBotApi(FAKE_TOKEN).start();
      cleanups.push(() => api.stop());
      const database = await serverDatabase(dir, 'postgres');
      cleanups.push(() => database.drop());
      cleanups.push(() => Promise.all(instances.map((server) => server.kill())));
      const env = {
        ...database.env,
        RECEIPTS_DIR: receipts,
        STATIC_DIR: staticDir,
        BOT_TOKEN: FAKE_TOKEN,
        WEBHOOK_URL: `https://localhost:${httpsPort}/telegram/webhook`,
        TELEGRAM_API_ROOT: api.url,
        OPERATOR_IDS: String(OPERATOR.id),
        DEPOSIT_ADDRESS_TRC20: TRON_WALLET,
        DEPOSIT_ADDRESS_EVM: EVM_WALLET,
        LOG_LEVEL: 'info',
      };
      // One after the other: the first runs the migrations.
      for (const port of ports) instances.push(await ServerProcess.start({ port, env }));

      const deadline = Date.now() + 10_000;
      for (;;) {
        if (started.exitCode !== null) throw new Error(`nginx did not start:\n${nginxErrors}`);
        try {
          if ((await call('GET', API_PATHS.health)).status === 200) break;
        } catch {
          // Not listening yet.
        }
        if (Date.now() > deadline) throw new Error(`nginx did not answer:\n${nginxErrors}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }, 120_000);

    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it('plain HTTP is sent to HTTPS', async () => {
      const answer = await new Promise<{ status: number; location: string | undefined }>(
        (resolve, reject) => {
          http
            .get(
              {
                host: '127.0.0.1',
                port: httpPort,
                path: '/order/1?x=1',
                headers: { host: 'localhost' },
              },
              (response) => {
                response.resume();
                resolve({ status: response.statusCode ?? 0, location: response.headers.location });
              },
            )
            .on('error', reject);
        },
      );
      expect(answer).toEqual({ status: 301, location: 'https://localhost/order/1?x=1' });
    });

    it('an update posted to the webhook path with the secret token reaches the bot; without it, 403', async () => {
      const webhooks = await api.waitFor('setWebhook', 2);
      expect(webhooks.map((c) => c.payload['url'])).toEqual([
        `https://localhost:${httpsPort}/telegram/webhook`,
        `https://localhost:${httpsPort}/telegram/webhook`,
      ]);
      const update = {
        update_id: 1,
        message: {
          message_id: 1,
          date: Math.floor(Date.now() / 1000),
          chat: { id: CUSTOMER.id, type: 'private', first_name: CUSTOMER.first_name },
          from: { is_bot: false, ...CUSTOMER },
          text: '/start',
          entities: [{ type: 'bot_command', offset: 0, length: 6 }],
        },
      };
      const forged = await call('POST', '/telegram/webhook', { body: update });
      expect(forged.status).toBe(403);
      const delivered = await call('POST', '/telegram/webhook', {
        body: update,
        headers: { 'x-telegram-bot-api-secret-token': webhookSecret(FAKE_TOKEN) },
      });
      expect(delivered.status, delivered.body).toBe(200);
      await api.waitForMessage(CUSTOMER.id, () => true);
    });

    it("nginx compresses nothing of the server's: an answer through it has the instance's encoding and ETag", async () => {
      for (const url of ['/', API_PATHS.appConfig]) {
        const direct = await fetch(`${instances[0]?.url ?? ''}${url}`, {
          headers: { 'accept-encoding': 'gzip' },
        });
        await direct.arrayBuffer();
        const proxied = await call('GET', url, { encoding: 'gzip' });
        expect(proxied.status).toBe(200);
        expect(
          { encoding: proxied.headers['content-encoding'], etag: proxied.headers['etag'] },
          url,
        ).toEqual({
          encoding: direct.headers.get('content-encoding') ?? undefined,
          etag: direct.headers.get('etag') ?? undefined,
        });
      }
    });

    it('/api/metrics is refused through nginx, however it is spelt', async () => {
      for (const url of ['/api/metrics', '/api/metrics/', '/api//metrics', '/api/%6Detrics']) {
        expect((await call('GET', url)).status, url).toBe(403);
      }
    });

    it(`the limit on refused init data counts the address nginx saw: ${ADDRESS_LIMITS.refusedIdentity} refusals, then 429, whatever X-Forwarded-For the client sends`, async () => {
      const forged = authHeader(
        initDataFor(CUSTOMER, { token: '7000000009:AAForgedTokenNobodyGaveUsAtAll_x1' }),
      );
      const before = instances.map((server) => loggedRequests(server).length);
      // Each with another address in the header: were any believed, the count would never
      // reach the limit.
      for (let i = 0; i < ADDRESS_LIMITS.refusedIdentity; i++) {
        const refused = await call('GET', API_PATHS.activeOrders, {
          headers: { ...forged, 'x-forwarded-for': `198.51.100.${i + 1}` },
        });
        expect(refused.status, refused.body).toBe(401);
      }
      const limited = await call('GET', API_PATHS.activeOrders, {
        headers: { ...forged, 'x-forwarded-for': '1.2.3.4', 'accept-language': 'en' },
      });
      expect(limited.status).toBe(429);
      expect(json(limited) as ApiErrorBody).toMatchObject({
        code: 'RATE_LIMITED',
        error: 'Too many requests. Please try again shortly.',
      });
      // A valid identity from the same address is not held back.
      expect((await as(CUSTOMER, 'GET', API_PATHS.activeOrders)).status).toBe(200);
      // Both instances counted, one count between them, and each saw the client nginx saw.
      const seen = instances.map((server, i) =>
        loggedRequests(server)
          .slice(before[i])
          .filter((r) => r.url === API_PATHS.activeOrders),
      );
      expect(seen.every((requests) => requests.length > 0)).toBe(true);
      expect(new Set(seen.flat().map((r) => r.ip))).toEqual(new Set(['127.0.0.1']));
    });

    it('a body over the limit is refused by nginx before any instance sees it, and both stay in use', async () => {
      const logged = accessLog(path.join(dir, 'nginx')).length;
      const refused = await as(
        CUSTOMER,
        'POST',
        API_PATHS.receipt('00000000-0000-4000-8000-000000000000'),
        {
          fileName: 'big.png',
          fileData: `data:image/png;base64,${'A'.repeat(RECEIPT_BODY_LIMIT_BYTES)}`,
        },
      );
      expect(refused.status).toBe(413);
      for (let i = 0; i < 4; i++) expect((await call('GET', API_PATHS.health)).status).toBe(200);
      // nginx logs the refused request once it has read the rest of its body, maybe after these.
      const deadline = Date.now() + 5_000;
      const since = () => accessLog(path.join(dir, 'nginx')).slice(logged);
      while (!since().some((r) => r.method === 'POST') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(since().filter((r) => r.method === 'POST')).toEqual([
        expect.objectContaining({ status: 413, ports: [] }),
      ]);
      const after = since().filter((r) => r.method === 'GET');
      expect(new Set(after.flatMap((r) => r.ports))).toEqual(new Set(ports));
    });

    it(
      'a whole P2P buy through nginx, spread over both instances, one killed halfway: every call answered, the order COMPLETED, a 9 MB receipt kept',
      { timeout: JOURNEY_MS },
      async () => {
        const log = path.join(dir, 'nginx');
        const logged = accessLog(log).length;
        const ok = (answer: Answer, status = 200): unknown => {
          expect(answer.status, answer.body).toBe(status);
          return json(answer);
        };
        const moved = (answer: Answer, to: string) =>
          expect(ok(answer) as OrderActionResponse).toEqual({ success: true, status: to });

        const spec = ORDER_KINDS.p2pBuy;
        const quote = ok(
          await as(
            CUSTOMER,
            'GET',
            `${API_PATHS.rate}?${new URLSearchParams({
              amount: String(spec.total),
              currency: spec.currency,
              operation: spec.type,
              cryptoCurrency: spec.cryptoCurrency,
              paymentMethod: spec.paymentMethod,
            }).toString()}`,
          ),
        ) as RateResponse;
        const { orderId: id } = ok(
          await as(CUSTOMER, 'POST', API_PATHS.createOrder, createPayload('p2pBuy', quote.rate)),
          201,
        ) as CreateOrderResponse;
        ok(await as(OPERATOR, 'GET', OPERATOR_PATHS.queue));
        moved(
          await as(OPERATOR, 'POST', OPERATOR_PATHS.requisites(id), CARD_REQUISITES),
          'REQUISITES_READY',
        );
        expect(
          (ok(await as(CUSTOMER, 'GET', API_PATHS.orderStatus(id))) as OrderDetails).status,
        ).toBe('REQUISITES_READY');
        const beforeKill = accessLog(log).slice(logged);
        expect(new Set(beforeKill.flatMap((r) => r.ports)), 'both instances answered').toEqual(
          new Set(ports),
        );

        const [alive, killed] = instances as [ServerProcess, ServerProcess];
        await killed.kill();
        const afterKill = accessLog(log).length;

        moved(await as(CUSTOMER, 'POST', API_PATHS.paymentConfirm(id)), 'PAYMENT_PENDING');
        const png = pngFile();
        const receipt = Buffer.concat([png, randomBytes(RECEIPT_BYTES - png.length)]);
        moved(
          await as(
            CUSTOMER,
            'POST',
            API_PATHS.receipt(id),
            receiptBody(receipt, 'image/png', 'check.png'),
          ),
          'RECEIPT_UPLOADED',
        );
        expect(
          (ok(await as(CUSTOMER, 'GET', API_PATHS.orderStatus(id))) as OrderDetails).receipts,
        ).toHaveLength(1);
        moved(
          await as(OPERATOR, 'POST', OPERATOR_PATHS.confirmPayment(id), {}),
          'PAYMENT_CONFIRMED',
        );
        moved(
          await as(OPERATOR, 'POST', OPERATOR_PATHS.complete(id), {
            outgoingTxHash: txHashFor('TRC20'),
          }),
          'COMPLETED',
        );
        expect(
          (ok(await as(CUSTOMER, 'GET', API_PATHS.orderStatus(id))) as OrderDetails).status,
        ).toBe('COMPLETED');

        // After the kill a request went to the dead instance, and nginx took it to the other.
        const after = accessLog(log).slice(afterKill);
        expect(
          after.every((r) => r.status < 300),
          JSON.stringify(after),
        ).toBe(true);
        const killedPort = ports[instances.indexOf(killed)];
        const alivePort = ports[instances.indexOf(alive)];
        expect(
          after.some((r) => r.ports.join() === `${killedPort},${alivePort}`),
          JSON.stringify(after),
        ).toBe(true);
        // The file is on the disk both instances share, whole.
        const files = fs.readdirSync(path.join(dir, 'receipts'));
        expect(files.map((name) => fs.statSync(path.join(dir, 'receipts', name)).size)).toEqual([
          RECEIPT_BYTES,
        ]);
      },
    );
  },
);
