/**
 * The status poll in Chromium against the real server: an order screen left open asks
 * with the ETag of its last answer as If-None-Match and gets 304 Not Modified, with no body, while
 * the order stays as it is, and shows the order's new state as soon as an operator acts.
 */
import type { Response } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../../src/shared/api';
import { OPERATOR, OperatorClient } from '../helpers/operator';
import { onScreen, useBrowserAndServer, withPhone } from './harness';
import { createP2pBuy } from './journeys';

let operator: OperatorClient;

const e2e = useBrowserAndServer({ operatorIds: [OPERATOR.id], maxActiveOrders: 50 });
beforeAll(() => {
  operator = new OperatorClient(e2e.server.app);
});

interface StatusPoll {
  readonly path: string;
  readonly ifNoneMatch: string | undefined;
  readonly status: number;
  readonly etag: string | undefined;
  readonly bodyBytes: number;
}

describe('the status poll of an open order screen', () => {
  it('sends If-None-Match and gets 304 while nothing changes, then shows the operator’s card at once', async () => {
    await withPhone(e2e.browser, { storedLanguage: 'en' }, async (page) => {
      const polls: StatusPoll[] = [];
      const recorded: Promise<void>[] = [];
      const record = async (response: Response) => {
        const headers = await response.request().allHeaders();
        const body = response.status() === 304 ? Buffer.alloc(0) : await response.body();
        polls.push({
          path: new URL(response.url()).pathname,
          ifNoneMatch: headers['if-none-match'],
          status: response.status(),
          etag: (await response.allHeaders())['etag'],
          bodyBytes: body.length,
        });
      };
      page.on('response', (response) => {
        if (/^\/api\/orders\/[^/]+\/status$/.test(new URL(response.url()).pathname)) {
          recorded.push(record(response));
        }
      });

      const id = await createP2pBuy(page, e2e.server.url);
      const status = API_PATHS.orderStatus(id);
      // The waiting screen asks after 0.5 s, then every 2 s: three unchanged answers.
      await expect
        .poll(
          async () => {
            await Promise.all(recorded);
            return polls.filter((p) => p.path === status && p.status === 304).length;
          },
          { timeout: 15_000 },
        )
        .toBeGreaterThanOrEqual(2);

      const waiting = polls.filter((p) => p.path === status);
      const [first, ...later] = waiting;
      expect(first).toMatchObject({ status: 200, ifNoneMatch: undefined });
      expect(first?.etag).toBeDefined();
      for (const poll of later) {
        expect(poll).toMatchObject({ status: 304, ifNoneMatch: first?.etag, bodyBytes: 0 });
      }

      await operator.giveCard(id);
      await onScreen(page, 'payment');
      await page.getByTestId('req-card').getByText('2200 7001 2345 6781').waitFor();
      await Promise.all(recorded);
      // The answer that moved the screen on: a 200 with a new ETag, to the last one's validator.
      const moved = polls.find((p) => p.status === 200 && p.ifNoneMatch === first?.etag);
      expect(moved).toBeDefined();
      expect(moved?.etag).not.toBe(first?.etag);
    });
  });
});
