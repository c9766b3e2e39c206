/**
 * Who gets the operator console inside Telegram, with a real bot token (not demo mode, where the
 * demo customer is an operator): the app opened as a Telegram client opens it, with init data
 * signed by the bot's token. A customer who is not in OPERATOR_IDS sees no console entry, gets
 * the not-found screen at /console without a single operator call, and the operator API answers
 * them 403 FORBIDDEN; the same launch for a user in OPERATOR_IDS shows the entry and the console.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ALICE } from '../helpers/identity';
import {
  onScreen,
  openInTelegram,
  realBotConfig,
  screenshot,
  startServer,
  useBrowserAndServer,
  type OpenedInTelegram,
} from './harness';

/** Someone else: the only operator of the server the customer uses. */
const OPERATOR_ID = 300_000_001;
const CUSTOMER = { ...ALICE, language_code: 'en' };

const e2e = useBrowserAndServer(realBotConfig([OPERATOR_ID]));

/** A call made from the page with the client's init data, as the app (or a script) makes it. */
function callFromPage(page: Page, path: string, initData: string) {
  return page.evaluate(
    async ({ path, initData }) => {
      const response = await fetch(path, { headers: { Authorization: `tma ${initData}` } });
      return { status: response.status, body: (await response.json()) as unknown };
    },
    { path, initData },
  );
}

/** The app is up inside Telegram, not in demo mode, and has asked who the caller is. */
async function startedInTelegram(opened: OpenedInTelegram): Promise<void> {
  await onScreen(opened.page, 'currencies');
  await expect
    .poll(() => opened.apiCalls.filter((call) => call.path === '/api/me'))
    .toEqual([{ path: '/api/me', status: 200 }]);
  expect(await opened.posted()).toContain('web_app_ready');
  expect(opened.apiCalls.map((call) => call.path)).not.toContain('/api/demo/session');
}

describe('the operator console inside Telegram', () => {
  it('a customer who is not an operator sees no console entry, gets the not-found screen at /console, and 403 FORBIDDEN from the operator API', async () => {
    const opened = await openInTelegram(e2e.browser, e2e.server, CUSTOMER, {
      storedLanguage: 'en',
      path: '/currencies',
    });
    const { page, initData } = opened;
    try {
      await startedInTelegram(opened);
      expect(await callFromPage(page, '/api/me', initData)).toEqual({
        status: 200,
        body: { telegramId: CUSTOMER.id, firstName: CUSTOMER.first_name, operator: false },
      });
      expect(await page.getByTestId('console-entry').count()).toBe(0);
      expect(await page.getByText('Operator console').count()).toBe(0);
      await screenshot(page, 'telegram-customer-currencies-en-light');

      await page.goto(opened.url('/console'));
      await onScreen(page, 'not-found');
      await page.getByText('Page not found').waitFor();
      expect(await page.locator('[data-screen^="console"]').count()).toBe(0);
      expect(opened.apiCalls.filter((call) => call.path.startsWith('/api/operator/'))).toEqual([]);
      await screenshot(page, 'telegram-customer-console-refused-en-light');

      const queue = await callFromPage(page, '/api/operator/queue', initData);
      expect(queue.status).toBe(403);
      expect(queue.body).toMatchObject({ code: 'FORBIDDEN', error: expect.any(String) as string });
    } finally {
      await opened.context.close();
    }
  });

  it('the same launch for a user in OPERATOR_IDS shows the entry and opens the console', async () => {
    const operators = await startServer(realBotConfig([CUSTOMER.id]));
    const opened = await openInTelegram(e2e.browser, operators, CUSTOMER, {
      storedLanguage: 'en',
      path: '/currencies',
    });
    const { page, initData } = opened;
    try {
      await startedInTelegram(opened);
      await page.getByTestId('console-entry').getByText('Operator console').click();
      await onScreen(page, 'console-queue');
      await page.locator('[data-queue-group="requisites"]').waitFor();
      expect((await callFromPage(page, '/api/operator/queue', initData)).status).toBe(200);
    } finally {
      await opened.context.close();
      await operators.close();
    }
  });
});
