/**
 * One money format on every screen, in each language: amounts come from src/shared/format.ts
 * (formatFiat, formatCrypto, formatRate) and the dictionaries take them as parameters, so no
 * dictionary (ru and en, with their console and bot parts) writes an amount by hand or glues an
 * amount to its currency. A hand written "500,000 ₽" in English beside "₽96.68" from Intl is two
 * formats on one screen.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import enBot from '../../i18n/en/bot';
import enConsole from '../../i18n/en/console';
import en from '../../i18n/en';
import ruBot from '../../i18n/ru/bot';
import ruConsole from '../../i18n/ru/console';
import ru from '../../i18n/ru';
import { formatFiat } from '../../src/shared/format';
import { BANK_RUB_MIN } from '../../src/shared/limits';
import { fakeApi, renderApp, settle, setUpScreenTests } from '../helpers/render-app';

const DICTIONARIES = { ru, en, ruConsole, enConsole, ruBot, enBot } as const;

/** A currency written next to a number: a sign, an ISO code, a coin, or its name. */
const CURRENCY = String.raw`(?:[₽$€₸£]|RUB|USD|EUR|AED|KZT|USDT|USDC|руб|рубл|roubl|rubl|доллар|dollar|евро|euro)`;
/** A number not part of a word (TRC20, ERC20 are network names, not amounts). */
const NUMBER = String.raw`(?<![\p{L}\d])\d[\d\s.,]*`;
const HAND_WRITTEN = [
  // 500 000 ₽, 3000 RUB, 100 USDT
  new RegExp(String.raw`${NUMBER}${CURRENCY}`, 'iu'),
  // ₽500,000, USD 5,000
  new RegExp(String.raw`(?<!\p{L})${CURRENCY}\s?\d`, 'iu'),
  // 500 000, 500,000, 1.000.000: grouped thousands are an amount, whatever follows
  /(?<![\p{L}\d])\d{1,3}(?:[ \u00a0\u202f,.]\d{3})+(?!\d)/u,
  // {amount} {coin}: an amount and its currency glued by the dictionary, not by a format function
  /\{\w+(?::\w+)?\}[\s\u00a0]*\{(?:coin|currency|crypto)(?::\w+)?\}/u,
];

/** Every string of a dictionary, with the path of its key. */
function strings(value: unknown, path: string): [string, string][] {
  if (typeof value === 'string') return [[path, value]];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => strings(inner, `${path}.${key}`));
}

function handWrittenAmounts(): string[] {
  return Object.entries(DICTIONARIES).flatMap(([name, dictionary]) =>
    strings(dictionary, name)
      .filter(([, text]) => HAND_WRITTEN.some((pattern) => pattern.test(text)))
      .map(([path, text]) => `${path}: ${text}`),
  );
}

describe('no dictionary writes an amount by hand', () => {
  it('ru and en, with their console and bot parts, hold no amount with a currency and no grouped number', () => {
    expect(handWrittenAmounts()).toEqual([]);
  });

  it.each([
    'Минимальная сумма 500 000 ₽',
    'Minimum amount 500,000 ₽',
    'Bank transfer, from ₽500,000',
    'Minimum amount 3,000 RUB',
    'Minimum amount USD 5,000',
    'Отправьте 100 USDT',
    'от 500 000 рублей',
    'up to 1 000 000',
    'limit 1.000.000',
    'Минимальная сумма {amount:string} {currency:string}',
    'it pays {difference} {coin} less than the order.',
  ])('the check catches "%s"', (text) => {
    expect(HAND_WRITTEN.some((pattern) => pattern.test(text))).toBe(true);
  });

  it.each([
    'Minimum amount {amount}',
    'Send only USDT on TRC20 (Tron)',
    'An image or a PDF, up to 10 MB',
    'Enter a number, e.g. 95.40',
    'Processing takes 5\u00a0to\u00a030\u00a0minutes',
    'USDT/USDC → RUB',
    '1 {crypto} = {rate}',
    'not the official {coin} contract',
  ])('the check lets "%s" be', (text) => {
    expect(HAND_WRITTEN.some((pattern) => pattern.test(text))).toBe(false);
  });
});

const setup = setUpScreenTests();
const plain = (text: string | null | undefined) => (text ?? '').replace(/\s/g, ' ');

async function openBankForm(language: 'ru' | 'en'): Promise<void> {
  fakeApi([{ method: 'GET', path: '/api/rates/calculate', reply: { json: { rate: 96.68 } } }]);
  sessionStorage.setItem('selectedCurrency', JSON.stringify({ code: 'RUB', symbol: '₽' }));
  renderApp('/bank-account', { language });
  await settle();
}

/** Where the rouble sign stands in an amount: before the digits (en) or after them (ru). */
const signSide = (amount: string) => (/₽\s?\d/.test(amount) ? 'before' : 'after');

describe('the bank form names its minimum as every other amount on it', () => {
  it.each([
    ['en', 'Minimum amount ₽500,000', '1 USDC = ₽96.68'],
    ['ru', 'Минимальная сумма 500 000 ₽', '1 USDC = 96,68 ₽'],
  ] as const)('(%s) "%s" beside "%s"', async (language, hint, rate) => {
    await openBankForm(language);
    const shownHint = plain(screen.getByText(/500/).textContent);
    const shownRate = plain(screen.getByTestId('rate').textContent);
    expect(shownHint).toBe(hint);
    expect(shownRate).toBe(rate);
    // The minimum is the bank bound written by formatFiat, its sign where the rate has it.
    expect(shownHint).toContain(plain(formatFiat(BANK_RUB_MIN, 'RUB', language)));
    expect(signSide(shownHint)).toBe(signSide(shownRate));
    // The amount field's ₽ stands on the same side of the number typed into it.
    const field = document.querySelector('input[name="fiatAmount"]');
    const unit = field?.closest('label')?.querySelector('.input-unit');
    expect(unit?.textContent).toBe('₽');
    const unitFirst =
      field !== null && unit !== null && unit !== undefined
        ? (field.compareDocumentPosition(unit) & Node.DOCUMENT_POSITION_PRECEDING) !== 0
        : undefined;
    expect(unitFirst ? 'before' : 'after').toBe(signSide(shownRate));
    expect(setup.dialogs.alert).not.toHaveBeenCalled();
  });

  it.each([
    ['en', 'Bank transfer, from ₽500,000'],
    ['ru', 'Перевод по реквизитам, от 500 000 ₽'],
  ] as const)('(%s) the method list says "%s"', async (language, text) => {
    fakeApi([]);
    sessionStorage.setItem('selectedCurrency', JSON.stringify({ code: 'RUB', symbol: '₽' }));
    renderApp('/rub-method', { language });
    await settle();
    expect(screen.getByText((content) => plain(content) === text)).toBeTruthy();
  });
});
