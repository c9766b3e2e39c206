/**
 * Every message the bot can send, in both languages: each names its order, carries what its
 * recipient needs to act (the amount, the card, the code, the deadline, the hash), has no
 * placeholder left or value unescaped, and opens the order (the app, or the console).
 */
import { describe, expect, it } from 'vitest';
import type { NotificationFacts } from '../../../src/server/orders/order-facts';
import {
  renderAddressAlert,
  renderNotification,
  renderRateAlert,
  renderStored,
} from '../../../src/server/notifications/render';
import { LANGUAGES } from '../../../src/shared/api';
import {
  CUSTOMER_NOTICES,
  OPERATOR_ALERTS,
  isAddressAlert,
  isCustomerNotice,
  isRateAlert,
  type AddressAlert,
  type NotificationKind,
  type RateAlert,
} from '../../../src/shared/notifications';

const ORDER_ID = '3f9c2a7b-61d4-4e0a-9b7c-2d5e8f1a0c34';
const DEADLINE = Date.UTC(2026, 10, 24, 11, 35); // 14:35 in Moscow
const HASH = 'a'.repeat(64);

const base: NotificationFacts = {
  orderId: ORDER_ID,
  type: 'BUY',
  method: 'P2P',
  crypto: 'USDT',
  network: 'TRC20',
  currency: 'RUB',
  amountUnits: 157_232_700,
  totalMinor: 1_500_000,
  deadline: DEADLINE,
  card: { bankName: 'Т-Банк', cardNumber: '2200700123456781', cardHolder: 'IVAN <PETROV>' },
  txHash: HASH,
  outgoingTxHash: HASH,
  rejectReasonCode: 'amount_mismatch',
  rejectReason: null,
  cancelReason: 'expired',
  reservationCode: 'K7Q2M9',
  office: {
    city: { ru: 'Москва', en: 'Moscow' },
    address: { ru: 'Пресненская наб., 12', en: '12 Presnenskaya Emb.' },
    hours: { ru: 'Пн–Пт 10:00–20:00', en: 'Mon–Fri 10:00–20:00' },
  },
  payoutCardLast4: '6781',
  customer: { telegramId: 200_000_001, name: 'Алиса', username: 'alice' },
  otherOrderIds: ['9a8b7c6d-0000-4000-8000-000000000000'],
  depositAddress: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
};

/** What each message must carry for its reader to act on it. */
const MUST_SAY: Partial<Record<NotificationKind, readonly string[]>> = {
  requisites_ready: ['2200700123456781', '14:35', 'IVAN &lt;PETROV&gt;'],
  office_ready: ['K7Q2M9', '14:35'],
  completed: [`https://tronscan.org/#/transaction/${HASH}`],
  payment_reminder: ['14:35'],
  deposit_requested: ['TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL', '14:35'],
  tx_submitted: [HASH],
  flag_reused_receipt: ['#9a8b7c6d'],
};

const KINDS = [...CUSTOMER_NOTICES, ...OPERATOR_ALERTS].filter(
  (kind): kind is Exclude<NotificationKind, AddressAlert | RateAlert> =>
    !isAddressAlert(kind) && !isRateAlert(kind),
);

/** The order's verification code, as orderFacts keeps it with every message about the order. */
const CODE = 'H4X9PW';

describe.each(LANGUAGES)('every message in %s', (language) => {
  it.each(KINDS)(
    '%s: names the order, says what to act on, opens it, ends with its verification code',
    (kind) => {
      const message = renderNotification(kind, { ...base, verificationCode: CODE }, language, {
        botUsername: 'exchange_bot',
        supportUrl: 'https://t.me/exchange_support',
      });
      expect(message.text).toContain('3f9c2a7b');
      expect(message.text).not.toMatch(/\{|\}|undefined|null|NaN/);
      for (const needed of MUST_SAY[kind] ?? []) expect(message.text).toContain(needed);
      // Said once, on the last line, whoever reads it.
      expect(message.text.split(CODE)).toHaveLength(2);
      expect(message.text.split('\n').at(-1)).toBe(
        language === 'ru'
          ? `🔐 Код проверки заказа: <b>${CODE}</b>`
          : `🔐 Order verification code: <b>${CODE}</b>`,
      );
      // An operator's chat message opens the chat; any other customer's message, the order.
      const param = !isCustomerNotice(kind)
        ? `console_${ORDER_ID}`
        : kind === 'operator_message'
          ? `chat_${ORDER_ID}`
          : `order_${ORDER_ID}`;
      expect(message.buttons[0]?.url).toBe(`https://t.me/exchange_bot?startapp=${param}`);
    },
  );
});

it('a message stored before orders had verification codes reads as it did', () => {
  const text = renderNotification('payment_confirmed', base, 'en', {
    botUsername: undefined,
    supportUrl: 'https://t.me/exchange_support',
  }).text;
  expect(text).toBe(
    'Order #3f9c2a7b: your payment of <b>₽15,000</b> has arrived. We are sending <b>157.2327 USDT</b> to your wallet on TRC20.',
  );
});

it('an office buy completed says so without a hash; a sell completed names the card it paid', () => {
  const office = renderNotification(
    'completed',
    { ...base, method: 'OFFICE', outgoingTxHash: null },
    'en',
    { botUsername: undefined, supportUrl: 'https://t.me/exchange_support' },
  );
  expect(office.text).toBe(
    'Order #3f9c2a7b is complete: <b>157.2327 USDT</b> are yours. Thank you!',
  );
  expect(office.buttons).toEqual([]);
  const sell = renderNotification('completed', { ...base, type: 'SELL' }, 'ru', {
    botUsername: undefined,
    supportUrl: 'https://t.me/exchange_support',
  });
  expect(sell.text).toMatch(
    /^Заказ №3f9c2a7b выполнен: <b>15\s000\s₽<\/b> отправлены на карту •••• 6781\.$/,
  );
});

it('an order cancelled because no operator answered says nothing was charged', () => {
  const text = renderNotification('cancelled', { ...base, cancelReason: 'no_operator' }, 'en', {
    botUsername: undefined,
    supportUrl: 'https://t.me/exchange_support',
  }).text;
  expect(text).toContain('3f9c2a7b');
  expect(text).toMatch(/No money was charged|nothing/i);
});

it("a sell's first message gives its exact amount, network and address to copy, in both languages", () => {
  const sell = { ...base, type: 'SELL' as const, amountUnits: 100_043_700 };
  const options = { botUsername: undefined, supportUrl: 'https://t.me/exchange_support' };
  expect(renderNotification('deposit_requested', sell, 'en', options).text).toBe(
    'Order #3f9c2a7b: send exactly <b>100.0437 USDT</b> on TRC20, in one transfer, to\n' +
      '<code>TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL</code>\nby <b>14:35</b> Moscow time. The last ' +
      'digits tell us the transfer is yours: any other amount waits for an operator. Then give ' +
      'the transaction hash in the app.',
  );
  expect(renderNotification('deposit_requested', sell, 'ru', options).text).toMatch(
    /^Заказ №3f9c2a7b: отправьте ровно <b>100,0437 USDT<\/b> в сети TRC20, одним переводом/,
  );
});

describe.each(LANGUAGES)('the alerts about a deposit address in %s', (language) => {
  const options = { botUsername: 'exchange_bot', supportUrl: 'https://t.me/exchange_support' };
  const sender = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

  it('an unmatched deposit names its network, exact amount, the sender whole and the hash, and opens the queue', () => {
    const facts = {
      network: 'BEP20' as const,
      coin: 'USDT' as const,
      amount: '101',
      sender,
      txHash: HASH,
    };
    const message = renderStored(
      { kind: 'unmatched_deposit', payload: JSON.stringify(facts), language: null },
      language,
      options,
    );
    expect(message).toEqual(renderAddressAlert('unmatched_deposit', facts, language, options));
    for (const needed of ['BEP20', '101 USDT', sender, HASH])
      expect(message.text).toContain(needed);
    expect(message.text).not.toMatch(/\{|\}|undefined|null|NaN/);
    expect(message.buttons[0]?.url).toBe('https://t.me/exchange_bot?startapp=console');
  });

  it('a scan behind names its network and how many blocks', () => {
    const text = renderAddressAlert(
      'scan_behind',
      { network: 'ERC20', lagBlocks: 12_000 },
      language,
      options,
    ).text;
    expect(text).toContain('ERC20');
    expect(text).toMatch(/12\s000|12,000/);
  });
});

describe.each(LANGUAGES)("the alerts about a pair's rate in %s", (language) => {
  const options = { botUsername: 'exchange_bot', supportUrl: 'https://t.me/exchange_support' };
  const sources = [
    { source: 'coingecko', price: 81.2, state: 'fresh' },
    { source: 'exmo', price: 83.05, state: 'outlier' },
  ] as const;

  it('a pair no longer quoted names the pair and each source with its price and state, and opens the queue', () => {
    const facts = { crypto: 'USDT' as const, fiat: 'RUB', sources };
    const message = renderStored(
      { kind: 'rate_unavailable', payload: JSON.stringify(facts), language: null },
      language,
      options,
    );
    expect(message).toEqual(renderRateAlert('rate_unavailable', facts, language, options));
    const outlier =
      language === 'ru' ? 'исключён: далеко от остальных' : 'left out: too far from the others';
    for (const needed of ['USDT/RUB', 'coingecko', 'exmo', outlier])
      expect(message.text).toContain(needed);
    // The source's state in words, never as it is stored.
    expect(message.text).not.toContain('(outlier)');
    expect(message.text).toMatch(/83[.,]05/);
    expect(message.text).not.toMatch(/\{|\}|undefined|null|NaN/);
    expect(message.buttons[0]?.url).toBe('https://t.me/exchange_bot?startapp=console');
  });

  it('a pair quoted again names its base', () => {
    const text = renderRateAlert(
      'rate_back',
      { crypto: 'USDC', fiat: 'EUR', base: 0.93, sources },
      language,
      options,
    ).text;
    expect(text).toContain('USDC/EUR');
    expect(text).toMatch(/0[.,]93/);
    expect(text).not.toMatch(/\{|\}|undefined|null|NaN/);
  });

  it('a jump held names the pair, both bases and the signed change, and says it waits for an operator', () => {
    const facts = { crypto: 'USDT' as const, fiat: 'RUB', from: 81.2, to: 84.5, sources };
    const text = renderRateAlert('rate_jump', facts, language, options).text;
    expect(text).toContain('USDT/RUB');
    expect(text).toMatch(/81[.,]2/);
    expect(text).toMatch(/84[.,]5/);
    expect(text).toMatch(/\+4[.,]1 %/);
    expect(text).toMatch(language === 'ru' ? /подтвердит/ : /confirms/);
    expect(text).not.toMatch(/\{|\}|undefined|null|NaN/);
    const down = renderRateAlert(
      'rate_jump',
      { ...facts, from: 84.5, to: 81.2 },
      language,
      options,
    );
    expect(down.text).toMatch(/−3[.,]9 %/);
  });

  it('a fixed rate ended names it and the market base it follows again, or says none quotes', () => {
    const facts = { crypto: 'USDT' as const, fiat: 'RUB', fixed: 82, sources };
    const back = renderRateAlert(
      'rate_fix_ended',
      { ...facts, base: 81.4 },
      language,
      options,
    ).text;
    expect(back).toMatch(/82/);
    expect(back).toMatch(/81[.,]4/);
    const none = renderRateAlert('rate_fix_ended', facts, language, options).text;
    expect(none).toContain('coingecko');
    for (const text of [back, none]) expect(text).not.toMatch(/\{|\}|undefined|null|NaN/);
  });
});
