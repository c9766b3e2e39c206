/**
 * One rule per field (src/shared/schemas/fields.ts): the form the customer fills and the payload
 * the server takes are made of the same pipes, so for every value they agree: what the form
 * takes the server takes, what the server refuses the form says before submit.
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { SellOrderSchema } from '../../src/shared/schemas/create-order';
import { sellFormSchema } from '../../src/shared/schemas/forms';
import { fiatBounds } from '../../src/shared/limits';
import {
  RECEIPT_ACCEPT,
  RECEIPT_TYPES,
  detectReceiptType,
  receiptProblem,
} from '../../src/shared/receipts';

const VALID_FORM = {
  cryptoAmount: '100',
  fiatAmount: '9713',
  cryptoCurrency: 'USDT',
  network: 'TRC20',
  cardNumber: '2200 7001 2345 6781',
  cardHolder: 'IVAN PETROV',
  bankName: 'T-Bank',
  phone: '',
  comment: '',
} as const;

const VALID_PAYLOAD = {
  type: 'SELL',
  amount: 100,
  currency: 'RUB',
  cryptoCurrency: 'USDT',
  network: 'TRC20',
  rate: 97.13,
  totalRub: 9713,
  cardNumber: '2200700123456781',
  cardHolder: 'IVAN PETROV',
  bankName: 'T-Bank',
  phone: '',
  comment: '',
  paymentMethod: 'P2P',
} as const;

const formTakes = (field: string, value: string) =>
  v.safeParse(sellFormSchema(fiatBounds('P2P', 'RUB')), { ...VALID_FORM, [field]: value }).success;
const serverTakes = (field: string, value: string) =>
  v.safeParse(SellOrderSchema, { ...VALID_PAYLOAD, [field]: value }).success;

describe('the sell form and the server agree on every card field', () => {
  it.each([
    ['cardHolder', 'IVAN PETROV', true],
    ['cardHolder', "ANNA-MARIA O'NEIL", true],
    ['cardHolder', 'ИВАН ПЕТРОВ', false],
    ['cardHolder', 'IVAN\u0000PETROV', false],
    ['cardHolder', '', false],
    ['cardNumber', '2200700123456782', false],
    ['cardNumber', '220070012345678', false],
    ['bankName', 'Т-Банк', true],
    ['bankName', 'Sber\u0007', false],
    ['bankName', 'x'.repeat(65), false],
    ['phone', '+7 900 000-00-00', true],
    ['phone', 'call me', false],
    ['comment', 'Первая строка\nвторая', true],
    ['comment', 'bad\u0000', false],
  ] as const)('%s %j: form and server both say %s', (field, value, ok) => {
    expect(formTakes(field, value)).toBe(ok);
    expect(serverTakes(field, value)).toBe(ok);
  });

  it('a Cyrillic holder is refused with the message key that tells to use Latin letters', () => {
    const result = v.safeParse(sellFormSchema(fiatBounds('P2P', 'RUB')), {
      ...VALID_FORM,
      cardHolder: 'ИВАН ПЕТРОВ',
    });
    expect(result.issues?.map((i) => i.message)).toEqual(['cardHolderLatin']);
  });
});

describe('receipts: the picker offers and checks exactly what the server stores', () => {
  it('the picker accepts the JPEG, PNG, WebP, HEIC and PDF types and their extensions, nothing else', () => {
    expect(RECEIPT_ACCEPT.split(',')).toEqual([
      'image/jpeg',
      'image/png',
      'image/webp',
      'image/heic',
      'application/pdf',
      'image/heif',
      '.jpg',
      '.jpeg',
      '.png',
      '.webp',
      '.heic',
      '.heif',
      '.pdf',
    ]);
    expect(RECEIPT_ACCEPT).not.toContain('image/*');
    expect(RECEIPT_TYPES.map((t) => t.extension)).toEqual(['jpg', 'png', 'webp', 'heic', 'pdf']);
  });

  it.each([
    ['a GIF', 'GIF89a\u0001\u0000'],
    ['an SVG', '<svg xmlns="http://www.w3.org/2000/svg">'],
    ['a BMP', 'BM6\u0000\u0000\u0000'],
    ['a Windows program', 'MZ\u0090\u0000'],
  ])('%s is refused by its bytes, whatever it is called', (_what, head) => {
    const bytes = new TextEncoder().encode(head);
    expect(detectReceiptType(bytes)).toBeUndefined();
    expect(receiptProblem(bytes.length, bytes)).toBe('fileTypeError');
  });

  it('a PDF over 10 MB is refused for its size', () => {
    const head = new TextEncoder().encode('%PDF-1.7');
    expect(receiptProblem(10 * 1024 * 1024, head)).toBeNull();
    expect(receiptProblem(10 * 1024 * 1024 + 1, head)).toBe('fileSizeError');
  });
});
