/**
 * Scanning a wallet inside Telegram: the scan button beside the wallet field of every buy form
 * opens the client's QR scanner (`web_app_open_scan_qr_popup`), and the fake client's bridge
 * answers with `qr_text_received`. A payment link for the selected network fills the field; a code
 * for another network, or text that is no address, is refused with a message in the customer's
 * language and the field keeps what it had. A client without a scanner (Mini Apps 6.3) shows no
 * button.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ALICE } from '../helpers/identity';
import {
  onScreen,
  openInTelegram,
  realBotConfig,
  screenshot,
  useBrowserAndServer,
  type OpenedInTelegram,
  type TelegramLaunchOptions,
} from './harness';
import { TRON_WALLET } from './journeys';

const OPERATOR_ID = 300_000_002;
/** The EIP-55 specification's first mixed-case address, a real-looking EVM wallet. */
const EVM_WALLET = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
/** Circle's USDC contract on Base, the target of a wallet's ERC-20 transfer request. */
const USDC_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

const e2e = useBrowserAndServer(realBotConfig([OPERATOR_ID]));

/** Opens the app as a Telegram client and taps from the currency list to a RUB buy form. */
async function openBuyForm(
  language: 'ru' | 'en',
  method: 'p2p' | 'bankAccount' | 'office',
  options: TelegramLaunchOptions = {},
): Promise<OpenedInTelegram> {
  const opened = await openInTelegram(
    e2e.browser,
    e2e.server,
    { ...ALICE, language_code: language },
    { storedLanguage: language, path: '/currencies', ...options },
  );
  const { page } = opened;
  await onScreen(page, 'currencies');
  await page.locator('[data-currency="RUB"]').click();
  await page.locator(`[data-method="${method}"]`).click();
  if (method === 'p2p') await page.locator('[data-direction="buy"]').click();
  await page.locator('input[name="walletAddress"]').waitFor();
  return opened;
}

const wallet = (page: Page) => page.locator('input[name="walletAddress"]');
const scanButton = (page: Page) => page.getByTestId('wallet-scan');

/** Queues `code` in the client's scanner, taps the button and waits for the scanner to be asked. */
async function scan(opened: OpenedInTelegram, code: string): Promise<void> {
  const before = (await opened.posted()).filter((e) => e === 'web_app_open_scan_qr_popup');
  await opened.nextQrCode(code);
  await scanButton(opened.page).click();
  await expect
    .poll(async () => (await opened.posted()).filter((e) => e === 'web_app_open_scan_qr_popup'))
    .toHaveLength(before.length + 1);
}

describe('scanning a wallet inside Telegram', () => {
  it('ru: an ethereum: link for Base fills the field; a link for Ethereum, a Tron address and plain text are refused in Russian and the field keeps the scanned wallet', async () => {
    const opened = await openBuyForm('ru', 'p2p');
    const { page } = opened;
    try {
      await onScreen(page, 'p2p-buy');
      // USDC on Base is the form's default network.
      expect(await page.locator('select[name="network"]').inputValue()).toBe('BASE');
      const button = page.getByRole('button', { name: 'Сканировать QR-код кошелька' });
      await button.waitFor();
      for (const width of [360, 390]) {
        await page.setViewportSize({ width, height: 844 });
        await screenshot(page, `wallet-scan-p2p-buy-ru-light-${width}`);
      }

      await scan(opened, `ethereum:${USDC_BASE}@8453/transfer?address=${EVM_WALLET}&uint256=1e8`);
      await expect.poll(() => wallet(page).inputValue()).toBe(EVM_WALLET);
      // The SDK closes the scanner once it has the code.
      await expect.poll(() => opened.posted()).toContain('web_app_close_scan_qr_popup');

      await scan(opened, `ethereum:${EVM_WALLET.toLowerCase()}@1`);
      await page
        .getByTestId('wallet-scan-error')
        .getByText(
          'Этот QR-код для другой сети, а выбрана сеть Base. Отсканируйте адрес в сети Base.',
        )
        .waitFor();
      expect(await wallet(page).inputValue()).toBe(EVM_WALLET);
      await screenshot(page, 'wallet-scan-refused-ru-light');

      await scan(opened, TRON_WALLET);
      await page.getByTestId('wallet-scan-error').getByText('для другой сети').waitFor();
      await scan(opened, 'Привет!');
      await page
        .getByTestId('wallet-scan-error')
        .getByText('В этом QR-коде нет адреса кошелька для сети Base.')
        .waitFor();
      expect(await wallet(page).inputValue()).toBe(EVM_WALLET);

      // Typing is the customer moving on: the message goes.
      await wallet(page).fill('');
      expect(await page.getByTestId('wallet-scan-error').count()).toBe(0);
    } finally {
      await opened.context.close();
    }
  });

  it('en: on TRC20 a tron: link fills the field; an ethereum: link is refused in English and the field keeps what was typed', async () => {
    const opened = await openBuyForm('en', 'p2p', { theme: 'dark' });
    const { page } = opened;
    try {
      await onScreen(page, 'p2p-buy');
      await page.locator('[data-coin="USDT"]').click();
      await page.locator('select[name="network"]').selectOption('TRC20');
      await page.getByRole('button', { name: 'Scan wallet QR code' }).waitFor();

      await scan(opened, `tron:${TRON_WALLET}?amount=100`);
      await expect.poll(() => wallet(page).inputValue()).toBe(TRON_WALLET);

      const typed = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
      await wallet(page).fill(typed);
      await scan(opened, `ethereum:${EVM_WALLET}@56`);
      await page
        .getByTestId('wallet-scan-error')
        .getByText(
          'This QR code is for another network, and TRC20 is selected. Scan an address on TRC20.',
        )
        .waitFor();
      expect(await wallet(page).inputValue()).toBe(typed);
      await scan(opened, 'https://example.com/');
      await page
        .getByTestId('wallet-scan-error')
        .getByText('This QR code holds no wallet address for TRC20.')
        .waitFor();
      expect(await wallet(page).inputValue()).toBe(typed);
      await screenshot(page, 'wallet-scan-refused-en-dark');
    } finally {
      await opened.context.close();
    }
  });

  it.each(['bankAccount', 'office'] as const)(
    'the %s buy form has the scan button beside its wallet field too',
    async (method) => {
      const opened = await openBuyForm('en', method);
      try {
        await scan(opened, `ethereum:pay-${EVM_WALLET}@8453`);
        await expect.poll(() => wallet(opened.page).inputValue()).toBe(EVM_WALLET);
      } finally {
        await opened.context.close();
      }
    },
  );

  it.each(['ru', 'en'] as const)(
    '%s: a client without a scanner (Mini Apps 6.3) shows no scan button',
    async (language) => {
      const opened = await openBuyForm(language, 'p2p', { version: '6.3' });
      try {
        await onScreen(opened.page, 'p2p-buy');
        expect(await wallet(opened.page).isVisible()).toBe(true);
        expect(await scanButton(opened.page).count()).toBe(0);
      } finally {
        await opened.context.close();
      }
    },
  );
});
