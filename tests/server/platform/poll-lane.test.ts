/**
 * The poll lane (src/server/platform/http/poll-lane.ts): the server in front of Fastify
 * answers an ordinary status poll itself, exactly as Fastify's route would (the same status,
 * headers and body, but the server's time), counted in the metrics the same way; everything else
 * reaches Fastify, which answers as it always did, each such poll counted by the reason it was
 * handed over; a throw in the lane before anything is sent is answered by Fastify too, and
 * STATUS_LANE=off closes it. What every request meets, the lane takes from the same object as
 * Fastify's two request-wide hooks (request-wide.ts); no other hook may apply to the status route,
 * or the lane would skip its work.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app';
import { STATUS_ROUTE } from '../../../src/server/orders/status/status-route';
import { ALICE, BOB, authHeader, initDataFor } from '../../helpers/identity';
import { insertOrder } from '../../helpers/orders';
import { createTestApp, type TestApp } from '../../helpers/test-app';

/** Headers that differ between two answers made at different moments or over other transports. */
const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** What a client can compare of an answer: its status, its headers, its body but the time. */
function comparable(status: number, headers: Record<string, string>, body: string) {
  const own = Object.fromEntries(
    Object.entries(headers).filter(([name]) => !TRANSPORT.has(name.toLowerCase())),
  );
  const parsed = body === '' ? null : (JSON.parse(body) as Record<string, unknown>);
  if (parsed !== null) delete parsed['serverTime'];
  return { status, headers: own, body: parsed };
}

describe('the poll lane', () => {
  let t: TestApp;
  let url: string;
  /** Requests Fastify answered (the lane's answers never reach it). */
  let reachedFastify = 0;
  let order: string;
  const alice = { ...authHeader(initDataFor(ALICE)), 'accept-language': 'ru' };

  beforeAll(async () => {
    t = await createTestApp({ logLevel: 'info' });
    // onResponse runs for every answer Fastify gives, a refusal by a hook included.
    t.app.addHook('onResponse', (_request, _reply, done) => {
      reachedFastify += 1;
      done();
    });
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    order = await insertOrder(t.database.db, ALICE, { status: 'WAITING_REQUISITES' });
  });
  afterAll(async () => {
    await t.close();
  });

  /** A request over HTTP, and whether Fastify saw it. */
  const get = async (path: string, headers: Record<string, string>) => {
    const before = reachedFastify;
    const res = await fetch(`${url}${path}`, { headers });
    const body = await res.text();
    // Fastify's onResponse runs once the answer has left: let it.
    await new Promise((resolve) => setImmediate(resolve));
    const answer = comparable(res.status, Object.fromEntries(res.headers), body);
    return { ...answer, answer, fastify: reachedFastify > before, raw: body };
  };
  /** The same request as Fastify answers it (its own inject does not pass the lane). */
  const fastifyAnswer = async (path: string, headers: Record<string, string>) => {
    const res = await t.injectFastify({ method: 'GET', url: path, headers });
    return comparable(res.statusCode, res.headers as Record<string, string>, res.body);
  };
  const statusPath = (id: string) => `/api/orders/${id}/status`;

  it('answers an ordinary poll itself, as Fastify answers it', async () => {
    const lane = await get(statusPath(order), alice);
    expect(lane.fastify).toBe(false);
    expect(lane.status).toBe(200);
    expect(lane.answer).toEqual(await fastifyAnswer(statusPath(order), alice));
    expect(JSON.parse(lane.raw)).toMatchObject({ id: order, status: 'WAITING_REQUISITES' });
    expect(lane.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
      'content-type': 'application/json; charset=utf-8',
    });
    expect(Number(lane.headers['content-length'])).toBe(Buffer.byteLength(lane.raw));
  });

  it('answers 304 to the version the app holds, as Fastify answers it', async () => {
    const { headers } = await get(statusPath(order), alice);
    const held = { ...alice, 'if-none-match': headers['etag'] ?? '' };
    const lane = await get(statusPath(order), held);
    expect(lane.fastify).toBe(false);
    expect(lane.status).toBe(304);
    expect(lane.raw).toBe('');
    expect(lane.answer).toEqual(await fastifyAnswer(statusPath(order), held));
  });

  it('answers the new status at once when the order changes', async () => {
    const { headers } = await get(statusPath(order), alice);
    await t.database.db
      .updateTable('orders')
      .set({ status: 'CANCELLED' })
      .where('id', '=', order)
      .execute();
    const lane = await get(statusPath(order), { ...alice, 'if-none-match': headers['etag'] ?? '' });
    expect(lane.fastify).toBe(false);
    expect(lane.status).toBe(200);
    expect(lane.body).toMatchObject({ status: 'CANCELLED' });
  });

  it.each([
    ['a query', `?telegramInitData=${encodeURIComponent(initDataFor(ALICE))}`, {}, 200, null],
    ['no identity', '', {}, 401, 'AUTH_MISSING'],
    [
      'init data signed by someone else',
      '',
      authHeader(`${initDataFor(ALICE)}0`),
      401,
      'AUTH_INVALID',
    ],
    ["another customer's order", '', authHeader(initDataFor(BOB)), 404, 'ORDER_NOT_FOUND'],
  ])(
    'hands a poll with %s to Fastify, which answers it',
    async (_case, query, auth, status, code) => {
      const lane = await get(`${statusPath(order)}${query}`, { ...auth, 'accept-language': 'en' });
      expect(lane.fastify).toBe(true);
      expect(lane.status).toBe(status);
      if (code !== null) expect(lane.body).toMatchObject({ code });
    },
  );

  it("answers an open chat's 304 itself, as Fastify answers it; a chat that moved is Fastify's to answer in full", async () => {
    const chatPath = `/api/orders/${order}/chat`;
    const first = await get(chatPath, alice);
    expect(first.status).toBe(200);
    expect(first.fastify).toBe(true);
    const held = { ...alice, 'if-none-match': first.headers['etag'] ?? '' };
    const lane = await get(chatPath, held);
    expect(lane.fastify).toBe(false);
    expect(lane.status).toBe(304);
    expect(lane.raw).toBe('');
    expect(lane.answer).toEqual(await fastifyAnswer(chatPath, held));
    const sent = await t.app.inject({
      method: 'POST',
      url: chatPath,
      headers: alice,
      payload: { text: 'Карта верная?' },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const moved = await get(chatPath, held);
    expect(moved.fastify).toBe(true);
    expect(moved.status).toBe(200);
    expect(JSON.parse(moved.raw)).toMatchObject({ messages: [{ text: 'Карта верная?' }] });
  });

  it('hands unknown orders, other paths and other methods to Fastify', async () => {
    const unknown = await get(statusPath('00000000-0000-4000-8000-000000000000'), alice);
    expect(unknown).toMatchObject({
      fastify: true,
      status: 404,
      body: { code: 'ORDER_NOT_FOUND' },
    });
    const malformed = await get(statusPath('not-an-id'), alice);
    expect(malformed).toMatchObject({
      fastify: true,
      status: 404,
      body: { code: 'ORDER_NOT_FOUND' },
    });
    const slash = await get(`${statusPath(order)}/`, alice);
    expect(slash.fastify).toBe(true);
    const before = reachedFastify;
    const head = await fetch(`${url}${statusPath(order)}`, { method: 'HEAD', headers: alice });
    expect(head.status).toBe(200);
    await new Promise((resolve) => setImmediate(resolve));
    expect(reachedFastify).toBe(before + 1);
  });

  it("counts its answers in the metrics under the route's label", async () => {
    const count = async () => {
      const text = await (await fetch(`${url}/api/metrics`)).text();
      const line = text
        .split('\n')
        .find(
          (l) =>
            l.startsWith('exchange_http_request_duration_seconds_count{') &&
            l.includes(`route="${STATUS_ROUTE}"`) &&
            l.includes('status="200"'),
        );
      return Number(line?.split(' ').at(-1) ?? 0);
    };
    const before = await count();
    for (let n = 0; n < 3; n++) expect((await get(statusPath(order), alice)).fastify).toBe(false);
    expect(await count()).toBe(before + 3);
  });

  /** The lane's fallbacks so far, by reason, from the metrics. */
  const fallbacks = async (base = url): Promise<Record<string, number>> => {
    const text = await (await fetch(`${base}/api/metrics`)).text();
    const counts: Record<string, number> = {};
    for (const m of text.matchAll(
      /^exchange_status_lane_fallbacks_total\{reason="(\w+)"\} (\d+)$/gm,
    )) {
      counts[m[1] ?? ''] = Number(m[2]);
    }
    return counts;
  };

  it('counts each poll it hands to Fastify by its reason: a refused identity, an unknown order', async () => {
    const before = await fallbacks();
    const forged = { authorization: 'tma user=%7B%22id%22%3A1%7D&hash=0' };
    expect((await get(statusPath(order), forged)).fastify).toBe(true);
    const unknown = statusPath('00000000-0000-4000-8000-000000000000');
    expect((await get(unknown, alice)).fastify).toBe(true);
    expect((await get(statusPath(order), alice)).fastify).toBe(false);
    const after = await fallbacks();
    expect((after['identity'] ?? 0) - (before['identity'] ?? 0)).toBe(1);
    expect((after['answer'] ?? 0) - (before['answer'] ?? 0)).toBe(1);
  });

  it('hands a poll to Fastify when the lane throws before anything is sent, and counts it', async () => {
    const before = await fallbacks();
    // The lane asks first; its throw leaves the object as it was for Fastify's own hooks.
    const wide = t.app.requestWide as { refusal: () => unknown };
    const refusal = wide.refusal;
    wide.refusal = () => {
      wide.refusal = refusal;
      throw new Error('the lane failed');
    };
    try {
      const res = await get(statusPath(order), alice);
      expect(res).toMatchObject({ fastify: true, status: 200 });
      expect(res.answer).toEqual(await fastifyAnswer(statusPath(order), alice));
    } finally {
      wide.refusal = refusal;
    }
    const after = await fallbacks();
    expect((after['error'] ?? 0) - (before['error'] ?? 0)).toBe(1);
  });

  it('is closed with STATUS_LANE=off, whatever the log level: Fastify answers every poll', async () => {
    const off = await createTestApp({ statusLane: false, logLevel: 'info' });
    let fastify = 0;
    off.app.addHook('onResponse', (_request, _reply, done) => {
      fastify += 1;
      done();
    });
    try {
      const offOrder = await insertOrder(off.database.db, ALICE, { status: 'WAITING_REQUISITES' });
      const base = await off.app.listen({ port: 0, host: '127.0.0.1' });
      const res = await fetch(`${base}${statusPath(offOrder)}`, { headers: alice });
      expect(res.status).toBe(200);
      await new Promise((resolve) => setImmediate(resolve));
      expect(fastify).toBe(1);
      expect(await fallbacks(base)).toEqual({});
    } finally {
      await off.close();
    }
  });

  it('is closed while polls are logged (debug): Fastify answers and logs each', async () => {
    const lines: string[] = [];
    const app = await buildApp(
      { ...t.config, logLevel: 'debug' },
      { db: t.database.db, logStream: { write: (line) => lines.push(line) } },
    );
    try {
      const logged = await app.listen({ port: 0, host: '127.0.0.1' });
      const res = await fetch(`${logged}${statusPath(order)}`, { headers: alice });
      expect(res.status).toBe(200);
      expect(lines.some((line) => line.includes(`/api/orders/${order}/status 200`))).toBe(true);
    } finally {
      await app.close();
    }
  });

  it('the status route meets no hook but the request-wide pair and the identity check the lane also runs', () => {
    const routes = t.app.printRoutes({ includeHooks: true, commonPrefix: false }).split('\n');
    const start = routes.findIndex((line) => line.endsWith(`${STATUS_ROUTE} (GET)`));
    expect(start).toBeGreaterThan(-1);
    const hooks: Record<string, string> = {};
    for (const line of routes.slice(start + 1)) {
      const hook = /• \((\w+)\) (.*)$/.exec(line);
      if (hook === null) break;
      hooks[hook[1] ?? ''] = hook[2] ?? '';
    }
    // This test's own counter is the one anonymous hook.
    expect(hooks).toEqual({
      onRequest: '["requestWide()","authenticate()"]',
      preValidation: '["authenticateBody()"]',
      onResponse: '["answered()","anonymous()"]',
    });
  });
});
