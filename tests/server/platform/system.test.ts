import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../../../src/shared/api';
import { parse } from '@telegram-apps/init-data-node';
import {
  DEMO_BOT_TOKEN,
  DEMO_USER,
  signInitData,
  initDataVerifier,
} from '../../../src/server/platform/identity/telegram-auth';
import { createTestApp, type TestApp } from '../../helpers/test-app';

describe('in demo mode (no BOT_TOKEN)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { realClock: true });
  });
  afterAll(async () => {
    await t.close();
  });

  it('GET /api/health answers ok after a database round trip, never cached', async () => {
    const res = await t.app.inject({ method: 'GET', url: API_PATHS.health });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('no API answer is cached unless its route says so: a refusal, an unknown path, a create', async () => {
    const refused = await t.app.inject({ method: 'GET', url: API_PATHS.activeOrders });
    expect(refused.statusCode).toBe(401);
    const unknown = await t.app.inject({ method: 'GET', url: '/api/no-such-call' });
    expect(unknown.statusCode).toBe(404);
    const create = await t.app.inject({ method: 'POST', url: API_PATHS.createOrder, payload: {} });
    expect(create.statusCode).toBeGreaterThanOrEqual(400);
    for (const res of [refused, unknown, create]) {
      expect(res.headers['cache-control']).toBe('no-store');
    }
    // The cities list says otherwise: it changes with a deployment, not between calls.
    const cities = await t.app.inject({ method: 'GET', url: '/api/cities/RUB' });
    expect(cities.headers['cache-control']).toBe('public, max-age=300');
  });

  it('GET /api/app-config says demo and gives the support link', async () => {
    const res = await t.app.inject({ method: 'GET', url: API_PATHS.appConfig });
    expect(res.json()).toEqual({ demo: true, supportUrl: 'https://t.me/exchange_support' });
  });

  it('GET /api/demo/session hands out init data that the server itself accepts', async () => {
    const res = await t.app.inject({ method: 'GET', url: API_PATHS.demoSession });
    expect(res.statusCode).toBe(200);
    const { initData } = res.json<{ initData: string }>();
    expect(initDataVerifier(DEMO_BOT_TOKEN, 60)(initData, Date.now()).telegramId).toBe(100_000_001);
    const orders = await t.app.inject({
      method: 'GET',
      url: API_PATHS.activeOrders,
      headers: { authorization: `tma ${initData}` },
    });
    expect(orders.statusCode).toBe(200);
  });

  it("each browser is its own demo customer: neither sees the other's orders, each is an operator", async () => {
    const session = async (browser: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `${API_PATHS.demoSession}?browser=${browser}`,
      });
      return { authorization: `tma ${res.json<{ initData: string }>().initData}` };
    };
    const first = await session('0f1e2d3c4b5a69788796a5b4c3d2e1f0');
    const second = await session('a1b2c3d4e5f60718293a4b5c6d7e8f90');
    const again = await session('0f1e2d3c4b5a69788796a5b4c3d2e1f0');
    const me = async (headers: { authorization: string }) =>
      (await t.app.inject({ method: 'GET', url: API_PATHS.me, headers })).json<{
        telegramId: number;
        operator: boolean;
      }>();
    const [one, two, oneAgain] = [await me(first), await me(second), await me(again)];
    expect(one.telegramId).not.toBe(two.telegramId);
    expect(oneAgain.telegramId).toBe(one.telegramId);
    expect([one.operator, two.operator]).toEqual([true, true]);
    const rate = await t.app.inject({
      method: 'GET',
      url: `${API_PATHS.rate}?amount=15000&currency=RUB&operation=BUY&cryptoCurrency=USDT&paymentMethod=P2P`,
      headers: first,
    });
    const created = await t.app.inject({
      method: 'POST',
      url: API_PATHS.createOrder,
      headers: first,
      payload: {
        type: 'BUY',
        paymentMethod: 'P2P',
        currency: 'RUB',
        cryptoCurrency: 'USDT',
        network: 'TRC20',
        amount: Math.round((15_000 / rate.json<{ rate: number }>().rate) * 10_000) / 10_000,
        totalRub: 15_000,
        rate: rate.json<{ rate: number }>().rate,
        walletAddress: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const listed = async (headers: { authorization: string }) =>
      (await t.app.inject({ method: 'GET', url: API_PATHS.activeOrders, headers })).json<{
        orders: unknown[];
      }>().orders.length;
    expect([await listed(first), await listed(second)]).toEqual([1, 0]);
  });

  it('signs every start parameter the app opens (order_, chat_, console_, console) into the demo init data, and drops any other', async () => {
    const signed = async (startParam: string) =>
      parse(
        (
          await t.app.inject({
            method: 'GET',
            url: `${API_PATHS.demoSession}?startParam=${encodeURIComponent(startParam)}`,
          })
        ).json<{ initData: string }>().initData,
      ).start_param;
    const id = '3f1c2a7e-8d4b-4c1a-9e2f-0a1b2c3d4e5f';
    for (const known of [`order_${id}`, `chat_${id}`, `console_${id}`, 'console']) {
      expect(await signed(known)).toBe(known);
    }
    for (const junk of ['<script>', 'chat_../x', 'promo_42']) {
      expect(await signed(junk)).toBeUndefined();
    }
  });

  it('answers an unknown API path with 404 NOT_FOUND as JSON', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('answers malformed JSON with 400 INVALID_JSON, never 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: API_PATHS.activeOrders,
      headers: { 'content-type': 'application/json' },
      payload: '{"telegramInitData":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'INVALID_JSON' });
  });

  it('answers an oversized body with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/orders/active',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ pad: 'x'.repeat(16 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });
});

describe('with a real BOT_TOKEN', () => {
  it('turns demo mode off: no demo session, demo init data refused', async () => {
    const t = await createTestApp(
      { botToken: '7000000001:AAHk3rZ9mQx2VbT8nP4sLw6yJcD1eFgH0iK' },
      { realClock: true },
    );
    try {
      const config = await t.app.inject({ method: 'GET', url: API_PATHS.appConfig });
      expect(config.json()).toMatchObject({ demo: false });
      const session = await t.app.inject({ method: 'GET', url: API_PATHS.demoSession });
      expect(session.statusCode).toBe(404);
      expect(session.json()).toMatchObject({ code: 'DEMO_DISABLED' });
      const demoSigned = signInitData(DEMO_BOT_TOKEN, DEMO_USER);
      const orders = await t.app.inject({
        method: 'GET',
        url: API_PATHS.activeOrders,
        headers: { authorization: `tma ${demoSigned}` },
      });
      expect(orders.statusCode).toBe(401);
      expect(orders.json()).toMatchObject({ code: 'AUTH_INVALID' });
    } finally {
      await t.close();
    }
  });
});
