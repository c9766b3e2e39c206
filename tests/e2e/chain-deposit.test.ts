/**
 * A seller's deposit checked on a real EVM chain, in Chromium against the real server: it goes from
 * 'seen' through the confirmations to confirmed with nobody acting. The server reads BEP20 from a
 * Hardhat node started here, configured through the variables an operator sets (CHAIN_RPC_BEP20,
 * TOKEN_CONTRACT_USDT_BEP20, CHAIN_CONFIRMATIONS_BEP20, DEPOSIT_ADDRESS_EVM,
 * CHAIN_CHECK_INTERVAL_MS); BEP20's USDT is the chain's 18-decimal token, as Binance's on BSC. No
 * autopilot: only the chain checker moves an order, except where an operator attaches a deposit
 * that came without a hash.
 */
import type { Browser, Page } from 'playwright-core';
import type { Hash } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/platform/config/config';
import { unitsToTokenAmount } from '../../src/shared/money';
import { formatCrypto } from '../../src/shared/format';
import { startEvmChain, type EvmTestChain } from '../helpers/evm-chain';
import {
  DEMO_CUSTOMER,
  launchBrowser,
  onScreen,
  openPhone,
  screenshot,
  startServer,
  withPhone,
  type RunningServer,
} from './harness';
import { createSell } from './journeys';

/** Small, so the test mines few blocks; the words must still read right for it. */
const CONFIRMATIONS = 3;

let chain: EvmTestChain;
let browser: Browser;
let server: RunningServer;

beforeAll(async () => {
  chain = await startEvmChain();
  // Read through loadConfig from the variables, so the server runs on what an operator would set.
  const config = loadConfig({
    CHAIN_RPC_BEP20: chain.url,
    TOKEN_CONTRACT_USDT_BEP20: chain.tokens.usdt18,
    CHAIN_CONFIRMATIONS_BEP20: String(CONFIRMATIONS),
    DEPOSIT_ADDRESS_EVM: chain.deposit,
    CHAIN_CHECK_INTERVAL_MS: '1000',
  });
  browser = await launchBrowser();
  server = await startServer({
    chain: config.chain,
    depositAddresses: config.depositAddresses,
    chainCheckIntervalMs: config.chainCheckIntervalMs,
    // Nobody plays the operator: the order can only move by the chain checker.
    demoAutopilot: false,
    maxActiveOrders: 50,
    // The phones' demo customer is an operator too, whose console sees every order and every
    // unmatched deposit (a demo visitor's console is scoped to their own orders and sees none).
    operatorIds: [DEMO_CUSTOMER.id],
  });
}, 120_000);

afterAll(async () => {
  await browser.close();
  await server.close();
  await chain.stop();
});

/** The order's status and its amount in the 18-decimal token's base units. */
async function orderOf(id: string): Promise<{ status: string; amount: bigint }> {
  const row = await server.database.db
    .selectFrom('orders')
    .select(['status', 'amount_units'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { status: row.status, amount: unitsToTokenAmount(row.amount_units, 18) };
}

async function pasteHash(page: Page, hash: Hash): Promise<void> {
  await page.locator('input[name="txHash"]').fill(hash);
  await page.getByTestId('submit-tx').click();
}

/** The height of a narrow phone's mini-app (a 360 × 740 screen less Telegram's own bars). */
const NARROW_FOLD = 640;

/** Screenshots at 390 px and 360 px: the page is left at 390. */
async function bothWidths(page: Page, name: string): Promise<void> {
  // The pointer rests where the last tap was: off the list, so no cell is drawn hovered.
  await page.mouse.move(0, 0);
  await screenshot(page, `${name}-390`);
  await page.setViewportSize({ width: 360, height: 844 });
  await screenshot(page, `${name}-360`);
  const line = page.getByTestId('chain-check');
  // Every word of the chain's line is on screen at the narrow width too, not cut off.
  const cut = await line.evaluateAll((cells) =>
    cells.some((cell) => cell.scrollWidth > cell.clientWidth),
  );
  expect(cut, `${name}: the chain's line is cut off at 360 px`).toBe(false);
  // What the seller waits for is seen without scrolling, on a narrow phone too.
  const box = await line.boundingBox();
  expect(box, `${name}: no chain line`).not.toBeNull();
  expect(
    (box?.y ?? 0) + (box?.height ?? 0),
    `${name}: the chain's line is below the fold at 360 px`,
  ).toBeLessThanOrEqual(NARROW_FOLD);
  await page.setViewportSize({ width: 390, height: 844 });
}

type Language = 'ru' | 'en';
type Theme = 'light' | 'dark';
const LOOKS = [
  ['ru', 'light'],
  ['en', 'light'],
  ['ru', 'dark'],
  ['en', 'dark'],
] as const satisfies readonly (readonly [Language, Theme])[];

/** The chain's line as each language words it, with CONFIRMATIONS of them required. */
const WORDS: Readonly<
  Record<Language, { seen: (n: number) => string; confirmed: (n: number) => string }>
> = {
  // After "из" the genitive plural, whatever the number; "3 подтверждения" after a number.
  ru: {
    seen: (n) => `Замечена в сети: ${n} из ${CONFIRMATIONS} подтверждений`,
    confirmed: (n) => `Подтверждена в сети: ${n} подтверждения`,
  },
  en: {
    seen: (n) => `Seen on the chain: ${n} of ${CONFIRMATIONS} confirmations`,
    confirmed: (n) => `Confirmed on the chain: ${n} confirmations`,
  },
};

/** Waits until `page` shows the chain's line in `state` with exactly `text`. */
async function chainLine(page: Page, state: string, text: string): Promise<void> {
  await page
    .locator(`[data-testid="chain-check"][data-state="${state}"]`)
    .getByText(text, { exact: true })
    .waitFor({ timeout: 15_000 });
}

describe('a sell of USDT on BEP20 checked on the chain', () => {
  it('shows "seen" with confirmations counting up as blocks are mined, then confirms by itself (ru and en, light and dark)', async () => {
    await withPhone(browser, { storedLanguage: 'ru' }, async (ru) => {
      const id = await createSell(ru, server.url, 'BEP20');
      await ru.getByTestId('deposit-address').getByText(chain.deposit).waitFor();
      const { amount } = await orderOf(id);
      const hash = await chain.transfer(chain.tokens.usdt18, chain.customer, chain.deposit, amount);
      await pasteHash(ru, hash);

      await onScreen(ru, 'sell-waiting');
      // Mined in one block: that block is its first confirmation.
      await chainLine(ru, 'seen', WORDS.ru.seen(1));
      await bothWidths(ru, 'chain-seen-1-ru-light');

      // The same order on more phones at the same time: each language in each theme.
      const others = await Promise.all(
        LOOKS.slice(1).map(async ([language, theme]) => {
          const { context, page } = await openPhone(browser, { storedLanguage: language, theme });
          return { language, theme, context, page };
        }),
      );
      const phones = [{ language: 'ru', theme: 'light', page: ru } as const, ...others];
      try {
        for (const phone of others) {
          await phone.page.goto(`${server.url}/order/${id}/sell-waiting`);
          await onScreen(phone.page, 'sell-waiting');
          await chainLine(phone.page, 'seen', WORDS[phone.language].seen(1));
        }

        await chain.mine(1);
        for (const { language, theme, page } of phones) {
          await chainLine(page, 'seen', WORDS[language].seen(2));
          await bothWidths(page, `chain-seen-2-${language}-${theme}`);
        }
        expect((await orderOf(id)).status).toBe('TX_PENDING');

        // The third block: final. The checker reads the transfer once more and confirms.
        await chain.mine(1);
        await expect
          .poll(async () => (await orderOf(id)).status, { timeout: 15_000 })
          .toBe('TX_CONFIRMED');
        // TX_CONFIRMED's screen: funds being sent, and the chain's line says it was confirmed
        // there, with the confirmations it had.
        for (const { language, theme, page } of phones) {
          await page
            .getByText(language === 'ru' ? 'Отправляем средства' : 'Sending funds')
            .waitFor({ timeout: 15_000 });
          await chainLine(page, 'confirmed', WORDS[language].confirmed(CONFIRMATIONS));
          await bothWidths(page, `chain-confirmed-${language}-${theme}`);
        }
      } finally {
        await Promise.all(others.map(({ context }) => context.close()));
      }

      const events = await server.database.db
        .selectFrom('order_events')
        .selectAll()
        .where('order_id', '=', id)
        .execute();
      const confirmed = events.find((event) => event.to_status === 'TX_CONFIRMED');
      expect(confirmed?.actor).toBe('chain');
    });
  });

  it('refuses a look-alike token and a transfer to another address with the reason, in the language, and the order keeps waiting', async () => {
    await withPhone(browser, { storedLanguage: 'en' }, async (en, alerts) => {
      const id = await createSell(en, server.url, 'BEP20');
      const { amount } = await orderOf(id);
      // The look-alike has 6 decimals: the same number of coins as the order, as a fraud sends.
      const fake = await chain.transfer(
        chain.tokens.lookAlike,
        chain.customer,
        chain.deposit,
        amount / 10n ** 12n,
      );
      const elsewhere = await chain.transfer(
        chain.tokens.usdt18,
        chain.customer,
        chain.stranger,
        amount,
      );

      await pasteHash(en, fake);
      await expect
        .poll(() => alerts.at(-1))
        .toBe(
          'This transaction moves a different token, not the official USDT contract. Such coins are not accepted.',
        );
      await pasteHash(en, elsewhere);
      await expect
        .poll(() => alerts.at(-1))
        .toBe(
          'This transaction was not sent to this order’s deposit address. Check the address and the hash.',
        );
      await onScreen(en, 'send-crypto');
      expect((await orderOf(id)).status).toBe('WAITING_CRYPTO');

      await withPhone(browser, { storedLanguage: 'ru' }, async (ru, russianAlerts) => {
        await ru.goto(`${server.url}/order/${id}/send-crypto`);
        await onScreen(ru, 'send-crypto');
        await pasteHash(ru, fake);
        await expect
          .poll(() => russianAlerts.at(-1))
          .toBe(
            'Эта транзакция переводит другой токен, не официальный контракт USDT. Такие монеты не принимаются.',
          );
        await pasteHash(ru, elsewhere);
        await expect
          .poll(() => russianAlerts.at(-1))
          .toBe(
            'Эта транзакция отправлена не на адрес депозита этого заказа. Проверьте адрес и хеш.',
          );
        await onScreen(ru, 'send-crypto');
      });
      expect((await orderOf(id)).status).toBe('WAITING_CRYPTO');
      const checks = await server.database.db
        .selectFrom('chain_checks')
        .select('order_id')
        .where('order_id', '=', id)
        .execute();
      // A refused hash is not kept: nothing to check, the order waits for the right one.
      expect(checks).toHaveLength(0);
    });
  });
});

describe("a deposit of another amount than any sell's exact one, sent without a hash", () => {
  /** A console phone at 390 px whose confirmations are accepted and recorded. */
  async function consolePhone(language: Language, theme: Theme) {
    const opened = await openPhone(browser, { storedLanguage: language, theme });
    const dialogs: string[] = [];
    opened.page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
    return { ...opened, dialogs };
  }

  /** Screenshots at 390 px and 360 px, nothing cut sideways at either; the page is left at 390. */
  async function shoot(page: Page, name: string, section: string): Promise<void> {
    await page.mouse.move(0, 0);
    for (const width of [390, 360]) {
      await page.setViewportSize({ width, height: 844 });
      const overflow = await page
        .getByTestId(section)
        .evaluate((element) => element.scrollWidth > element.clientWidth);
      expect(overflow, `${name}: the section is wider than the screen at ${width} px`).toBe(false);
      await screenshot(page, `${name}-${width}`);
    }
    await page.setViewportSize({ width: 390, height: 844 });
  }

  it('is listed on the queue (ru and en), found among the waiting sells, and attached on its order, which the chain then confirms', async () => {
    await withPhone(browser, { storedLanguage: 'en' }, async (customer) => {
      // Two sells of the same amount asked, each given its own exact amount; the seller sends
      // a round 101 USDT instead, an amount no sell holds: the scan cannot tell whose it is.
      const first = await createSell(customer, server.url, 'BEP20');
      const second = await createSell(customer, server.url, 'BEP20');
      expect((await orderOf(first)).amount).not.toBe((await orderOf(second)).amount);
      const amount = 101n * 10n ** 18n;
      // Sent without a hash ever pasted: only the scan of the deposit address sees it.
      const hash = (
        await chain.transfer(chain.tokens.usdt18, chain.customer, chain.deposit, amount)
      ).toLowerCase();

      const en = await consolePhone('en', 'light');
      const ru = await consolePhone('ru', 'dark');
      try {
        for (const [phone, words] of [
          [
            ru,
            {
              title: 'Неопознанные поступления',
              could: /Не совпал по сумме ни с одним заказом/,
            },
          ],
          [en, { title: 'Unmatched deposits', could: /Matches no order’s amount/ }],
        ] as const) {
          await phone.page.goto(`${server.url}/console`);
          await onScreen(phone.page, 'console-queue');
          const row = phone.page.locator(
            `[data-testid="queue-incoming"] [data-incoming="${hash}"]`,
          );
          await row.waitFor({ timeout: 15_000 });
          await expect.poll(() => row.textContent()).toMatch(words.could);
          expect(await row.textContent()).toContain('101 USDT · BEP20');
          expect(
            await phone.page.getByTestId('queue-incoming').locator('header').textContent(),
          ).toMatch(new RegExp(`^${words.title} · \\d+$`));
        }
        await shoot(ru.page, 'console-queue-incoming-ru-dark', 'queue-incoming');
        await shoot(en.page, 'console-queue-incoming-en-light', 'queue-incoming');

        // The deposit opens the sells waiting for their crypto; the operator picks the order.
        await en.page.locator(`[data-testid="queue-incoming"] [data-incoming="${hash}"]`).click();
        await onScreen(en.page, 'console-search');
        await en.page.locator(`[data-console-order="${second}"]`).click();
        await onScreen(en.page, 'console-order');
        const listed = en.page.locator(
          `[data-testid="console-incoming"] [data-incoming="${hash}"]`,
        );
        await listed.waitFor({ timeout: 15_000 });
        await shoot(en.page, 'console-order-incoming-en-light', 'console-incoming');
        await ru.page.goto(`${server.url}/console/orders/${second}`);
        await ru.page
          .getByTestId('console-incoming')
          .getByText('Неопознанные поступления на адрес')
          .waitFor({ timeout: 15_000 });
        await shoot(ru.page, 'console-order-incoming-ru-dark', 'console-incoming');

        const secondAmount = (await orderOf(second)).amount;
        await listed.getByTestId('attach-deposit').click();
        await en.page
          .getByTestId('console-notice')
          .getByText('Done: the order is now “Transaction pending”')
          .waitFor({ timeout: 15_000 });
        expect(en.dialogs).toEqual([
          `Attach this transfer to order #${second.slice(0, 8)} as its deposit?\nTransfer: 101 USDT from ${chain.customer}\nOrder: ${formatCrypto(Number(secondAmount) / 1e18, 'USDT', 'en')}\nThe chain then confirms it.`,
        ]);
        expect((await orderOf(second)).status).toBe('TX_PENDING');
        expect((await orderOf(first)).status).toBe('WAITING_CRYPTO');
        // Taken: the list of the other sell no longer has it.
        await ru.page.goto(`${server.url}/console/orders/${first}`);
        await onScreen(ru.page, 'console-order');
        await ru.page.getByTestId('console-status').waitFor();
        expect(await ru.page.locator(`[data-incoming="${hash}"]`).count()).toBe(0);

        await chain.mine(CONFIRMATIONS);
        await expect
          .poll(async () => (await orderOf(second)).status, { timeout: 15_000 })
          .toBe('TX_CONFIRMED');
      } finally {
        await en.context.close();
        await ru.context.close();
      }
    });
  });
});
