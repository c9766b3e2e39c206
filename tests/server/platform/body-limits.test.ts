/**
 * Bodies are judged before they are read: a JSON call takes at most 64 KB and
 * is refused 413 from its Content-Length; the receipt upload alone takes a 10 MB file as a data
 * URL, and only from a known caller, on their own order waiting for a receipt. Each refusal is
 * answered at once: the requests here send their headers and a first kilobyte, never the rest,
 * so a server that read the body before answering would never answer them.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../../../src/shared/api';
import { OPERATOR_PATHS } from '../../../src/shared/operator-api';
import { JSON_BODY_LIMIT_BYTES } from '../../../src/server/platform/http/json-body';
import { RECEIPT_BODY_LIMIT_BYTES } from '../../../src/server/receipts/receipt-json';
import { newCustomer, type TestUser } from '../../helpers/api';
import { authHeader, initDataFor } from '../../helpers/identity';
import { insertOrder } from '../../helpers/orders';
import { createTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
let base: URL;
beforeAll(async () => {
  t = await createTestApp();
  base = new URL(await t.app.listen({ port: 0, host: '127.0.0.1' }));
});
afterAll(async () => {
  await t.close();
});

interface Answer {
  readonly status: number;
  readonly code: string | undefined;
}

/**
 * A POST (or `method`) that announces `length` bytes and sends one kilobyte of them: its answer, which can
 * only come before the body is read.
 */
function announce(path: string, length: number, user?: TestUser, method = 'POST'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request({
      method,
      host: base.hostname,
      port: base.port,
      path,
      headers: {
        'content-type': 'application/json',
        'content-length': String(length),
        ...(user === undefined ? {} : authHeader(initDataFor(user))),
      },
    });
    request.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        request.destroy();
        const body = JSON.parse(text || '{}') as { code?: string };
        resolve({ status: response.statusCode ?? 0, code: body.code });
      });
    });
    // The connection is cut once the answer is in: that error is the test's own doing.
    request.on('error', (error) => {
      if (!request.destroyed) reject(error);
    });
    request.write(`{"fileName":"r.png","fileData":"${'A'.repeat(1_000)}`);
  });
}

const receiptPath = (id: string) => API_PATHS.receipt(id);

describe('bodies judged before they are read', () => {
  it(`a JSON call announcing more than ${JSON_BODY_LIMIT_BYTES / 1024} KB is refused 413 at once, even from a known caller`, async () => {
    const alice = newCustomer('Alice');
    const answer = await announce(API_PATHS.createOrder, JSON_BODY_LIMIT_BYTES + 1, alice);
    expect(answer).toEqual({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
  });

  it('a receipt from nobody is refused 401 before its 13 MB are read', async () => {
    const alice = newCustomer('Alice');
    const id = await insertOrder(t.database.db, alice, { status: 'PAYMENT_PENDING' });
    const answer = await announce(receiptPath(id), RECEIPT_BODY_LIMIT_BYTES - 1);
    expect(answer).toEqual({ status: 401, code: 'AUTH_MISSING' });
  });

  it("a receipt to someone else's order is refused 404 before its body is read", async () => {
    const alice = newCustomer('Alice');
    const mallory = newCustomer('Mallory');
    const id = await insertOrder(t.database.db, alice, { status: 'PAYMENT_PENDING' });
    const answer = await announce(receiptPath(id), RECEIPT_BODY_LIMIT_BYTES - 1, mallory);
    expect(answer).toEqual({ status: 404, code: 'ORDER_NOT_FOUND' });
  });

  it('a receipt to an order that takes none now is refused 409 before its body is read', async () => {
    const alice = newCustomer('Alice');
    const id = await insertOrder(t.database.db, alice, { status: 'COMPLETED' });
    const answer = await announce(receiptPath(id), RECEIPT_BODY_LIMIT_BYTES - 1, alice);
    expect(answer).toEqual({ status: 409, code: 'INVALID_STATUS' });
  });

  it("a receipt announcing more than a 10 MB file's data URL is refused 413 at once", async () => {
    const alice = newCustomer('Alice');
    const id = await insertOrder(t.database.db, alice, { status: 'PAYMENT_PENDING' });
    const answer = await announce(receiptPath(id), RECEIPT_BODY_LIMIT_BYTES + 1, alice);
    expect(answer).toEqual({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
  });

  it('an operator call announcing more than 64 KB from nobody is refused 401 at once', async () => {
    const answer = await announce(
      OPERATOR_PATHS.rates,
      JSON_BODY_LIMIT_BYTES * 10,
      undefined,
      'PUT',
    );
    expect(answer).toEqual({ status: 401, code: 'AUTH_MISSING' });
  });
});
