/**
 * The order screens' polls are conditional: the app sends the ETag of the last 200 as
 * `If-None-Match`, keeps that answer on `304 Not Modified` (no render, and the clock offset of the
 * 200, not one recomputed from its old `serverTime`), takes a 200 with a new ETag in its place,
 * and treats a 304 it did not ask for as a failed poll. The status call is faked, with the clock.
 */
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { memoryLocation } from 'wouter/memory-location';
import { useOrderScreen } from '../../../../src/app/features/order/use-order-screen';
import type { OrderDetails } from '../../../../src/shared/api';
import { ORDER_SCREEN_TABLE } from '../../../../src/shared/order-screens';
import { iso, makeOrder } from '../../../helpers/order-fixtures';
import {
  AppProviders,
  advance,
  fakeApi,
  settle,
  setUpScreenTests,
  type ApiCall,
  type FakeReply,
} from '../../../helpers/render-app';

const NOW = Date.parse('2025-03-01T12:00:00.000Z');
const ID = 'ord-1';
const STATUS = `/api/orders/${ID}/status`;
/** The complete screen asks every 3 s and stays in RECEIPT_UPLOADED and PAYMENT_CONFIRMED. */
const POLL_MS = ORDER_SCREEN_TABLE.complete.pollMs ?? 0;
/** The server's clock runs 10 minutes ahead of the phone's. */
const AHEAD_MS = 10 * 60_000;

setUpScreenTests(NOW);

/**
 * The status call as the server answers it: a 200 with the order (its `serverTime` the server's
 * clock) and an ETag of the order's version, or a 304 with no body to a request whose
 * If-None-Match is that ETag. `etags: false` answers as a server without ETags does.
 */
function serveStatus(options: { readonly etags?: boolean } = {}) {
  let fields: Partial<OrderDetails> = { id: ID, status: 'RECEIPT_UPLOADED' };
  let version = 1;
  let aheadMs = AHEAD_MS;
  let next: FakeReply | undefined;
  const api = fakeApi([
    {
      method: 'GET',
      path: STATUS,
      reply: (call): FakeReply => {
        if (next !== undefined) {
          const reply = next;
          next = undefined;
          return reply;
        }
        const etag = `"v${version}"`;
        if (options.etags !== false && call.headers['if-none-match'] === etag) {
          return { status: 304, headers: { etag } };
        }
        return {
          json: makeOrder({ ...fields, serverTime: iso(Date.now() + aheadMs) }),
          headers: options.etags === false ? {} : { etag },
        };
      },
    },
  ]);
  return {
    /** The server moved the order on: a new version, so a new ETag. */
    update: (next: Partial<OrderDetails>) => {
      fields = { ...fields, ...next };
      version += 1;
    },
    /** From now on the server's clock runs `ms` ahead of the phone's. */
    setClockAhead: (ms: number) => {
      aheadMs = ms;
    },
    /** The next status call is answered with `reply`, whatever it asks. */
    answerNextWith: (reply: FakeReply) => {
      next = reply;
    },
    polls: (): ApiCall[] => api.callsTo('GET', STATUS),
    lastIfNoneMatch: () => api.callsTo('GET', STATUS).at(-1)?.headers['if-none-match'],
  };
}

/** The complete screen's hook, counting its renders. */
function renderOrderScreen() {
  const location = memoryLocation({ path: `/order/${ID}/complete`, record: true });
  const wrapper = ({ children }: { readonly children: ReactNode }) => (
    <AppProviders location={location}>{children}</AppProviders>
  );
  let renders = 0;
  const hook = renderHook(
    () => {
      renders += 1;
      return useOrderScreen('complete', ID);
    },
    { wrapper },
  );
  return { hook, renders: () => renders };
}

describe('conditional status polls: If-None-Match and 304', () => {
  it('the first poll sends no If-None-Match; the next send the ETag of the last 200', async () => {
    const server = serveStatus();
    renderOrderScreen();
    await settle();
    expect(server.polls()).toHaveLength(1);
    expect(server.lastIfNoneMatch()).toBeUndefined();
    await advance(POLL_MS);
    expect(server.polls()).toHaveLength(2);
    expect(server.lastIfNoneMatch()).toBe('"v1"');
  });

  it("a 304 keeps the answer without a render, and the clock offset measured when the 200 arrived, not the kept serverTime's age", async () => {
    serveStatus();
    const { hook, renders } = renderOrderScreen();
    await settle();
    const order = hook.result.current.order;
    expect(order?.status).toBe('RECEIPT_UPLOADED');
    expect(hook.result.current.offsetMs).toBe(AHEAD_MS);
    const rendered = renders();

    await advance(3 * POLL_MS);

    expect(renders()).toBe(rendered);
    expect(hook.result.current.order).toBe(order);
    expect(hook.result.current.offsetMs).toBe(AHEAD_MS);
  });

  it('a 200 with a new ETag replaces the answer and its offset, and the next poll sends that ETag', async () => {
    const server = serveStatus();
    const { hook } = renderOrderScreen();
    await settle();
    server.setClockAhead(AHEAD_MS / 2);
    await advance(POLL_MS);
    expect(hook.result.current.offsetMs).toBe(AHEAD_MS);
    server.update({ status: 'PAYMENT_CONFIRMED' });

    await advance(POLL_MS);

    expect(hook.result.current.order?.status).toBe('PAYMENT_CONFIRMED');
    expect(hook.result.current.offsetMs).toBe(AHEAD_MS / 2);
    await advance(POLL_MS);
    expect(server.lastIfNoneMatch()).toBe('"v2"');
    expect(hook.result.current.order?.status).toBe('PAYMENT_CONFIRMED');
  });

  it('a 304 to a poll that sent no If-None-Match is a failed poll; the next asks again without one', async () => {
    const server = serveStatus();
    server.answerNextWith({ status: 304 });
    const { hook } = renderOrderScreen();
    await settle();
    expect(hook.result.current.order).toBeUndefined();
    expect(console.warn).toHaveBeenCalled();

    await advance(POLL_MS);

    expect(server.polls()).toHaveLength(2);
    expect(server.lastIfNoneMatch()).toBeUndefined();
    expect(hook.result.current.order?.status).toBe('RECEIPT_UPLOADED');
  });

  it('a failed poll between two 304s keeps the answer, and the next 304 still keeps it', async () => {
    const server = serveStatus();
    const { hook } = renderOrderScreen();
    await settle();
    const order = hook.result.current.order;
    server.answerNextWith('network-error');
    await advance(POLL_MS);
    expect(hook.result.current.order).toBe(order);

    await advance(POLL_MS);

    expect(server.lastIfNoneMatch()).toBe('"v1"');
    expect(hook.result.current.order).toBe(order);
  });

  it('an answer without an ETag (a server that sends none) is asked again in full', async () => {
    const server = serveStatus({ etags: false });
    const { hook } = renderOrderScreen();
    await settle();
    await advance(POLL_MS);
    expect(server.polls()).toHaveLength(2);
    expect(server.lastIfNoneMatch()).toBeUndefined();
    expect(hook.result.current.order?.status).toBe('RECEIPT_UPLOADED');
  });
});
