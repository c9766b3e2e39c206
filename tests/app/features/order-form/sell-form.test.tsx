/**
 * The P2P sell form /p2p/sell, rendered in the real app with the API and the clock faked. Each
 * test names the rule it holds: the amounts recompute each other with the live SELL rate, the
 * coin resets the network, the card rules, the required fields, the rouble bounds, the payload
 * and what a failure shows.
 */
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  advance,
  fakeApi,
  renderApp,
  settle,
  type FakeApi,
  type FakeReply,
  setUpScreenTests,
  input,
  networkSelect,
  type,
} from '../../../helpers/render-app';

const RATE = 97.13;
/** 16 digits with a valid Luhn checksum; the same number with its last digit changed fails it. */
const CARD = '2200700123456781';
const CARD_BAD_LUHN = '2200700123456782';
const CREATE_FAILED_EN = 'An error occurred while creating the order. Please try again.';
const CREATE = '/api/orders/create';

const setup = setUpScreenTests();

function standardApi(rate: FakeReply = { json: { rate: RATE } }): FakeApi {
  return fakeApi([
    { method: 'GET', path: '/api/rates/calculate', reply: rate },
    { method: 'POST', path: CREATE, reply: { json: { success: true, orderId: 'ord-1' } } },
  ]);
}

async function open(language: 'ru' | 'en' = 'en'): Promise<ReturnType<typeof renderApp>> {
  sessionStorage.setItem('selectedCurrency', JSON.stringify({ code: 'RUB', symbol: '₽' }));
  const app = renderApp('/p2p/sell', { language });
  await settle();
  return app;
}

const continueButton = () => screen.getByTestId<HTMLButtonElement>('continue');
const coin = (code: 'USDT' | 'USDC') =>
  fireEvent.click(screen.getByRole('tab', { name: code, hidden: true }));
const networkOptions = () => [...networkSelect().options].map((o) => o.value);
/** Intl groups thousands with (narrow) no-break spaces in Russian: compare with plain spaces. */
const plain = (text: unknown) => (typeof text === 'string' ? text : '').replace(/\s/g, ' ');
const creates = (api: FakeApi) => api.callsTo('POST', CREATE);

async function submit(): Promise<void> {
  fireEvent.click(continueButton());
  await settle();
}

/** A complete, valid sell: the crypto amount given, a valid card, holder and bank. */
function fillValid(cryptoAmount = '100'): void {
  type('cryptoAmount', cryptoAmount);
  type('cardNumber', CARD);
  type('cardHolder', 'IVAN PETROV');
  type('bankName', 'T-Bank');
}

describe('the amounts recompute each other with the live SELL rate', () => {
  it('the crypto amount gives the RUB amount = crypto × rate, rounded to a whole rouble', async () => {
    standardApi();
    await open();
    type('cryptoAmount', '10.5');
    // 10.5 × 97.13 = 1019.865
    expect(input('fiatAmount').value).toBe('1020');
    type('cryptoAmount', '100');
    expect(input('fiatAmount').value).toBe('9713');
  });

  it('the RUB amount gives the crypto amount = RUB ÷ rate with 4 decimals', async () => {
    standardApi();
    await open();
    type('fiatAmount', '5000');
    // 5000 / 97.13 = 51.47740…
    expect(input('cryptoAmount').value).toBe('51.4774');
  });

  it('the RUB amount takes digits and one decimal point, a comma becoming a point (only the bank amount is digits only)', async () => {
    standardApi();
    await open();
    type('fiatAmount', '3 500,5');
    expect(input('fiatAmount').value).toBe('3500.5');
    // 3500.5 / 97.13 = 36.03933…: a dropped separator would have made it ten times as much.
    expect(input('cryptoAmount').value).toBe('36.0393');
    type('fiatAmount', '12.5.3');
    expect(input('fiatAmount').value.split('.')).toHaveLength(2);
  });

  it('clearing one side clears the other', async () => {
    standardApi();
    await open();
    type('cryptoAmount', '100');
    type('cryptoAmount', '');
    expect(input('fiatAmount').value).toBe('');
    type('fiatAmount', '5000');
    type('fiatAmount', '');
    expect(input('cryptoAmount').value).toBe('');
  });

  it('uses the rate the SELL lookup answered, not a BUY one', async () => {
    const api = standardApi();
    api.on('GET', '/api/rates/calculate', (call) => ({
      json: { rate: call.query.get('operation') === 'SELL' ? 90 : 110 },
    }));
    await open();
    expect(screen.getByTestId('rate').textContent).toBe('1 USDC = ₽90.00');
    type('cryptoAmount', '10');
    expect(input('fiatAmount').value).toBe('900');
  });
});

describe('the live rate', () => {
  it('the first lookup is operation=SELL, paymentMethod=P2P, amount=1000; then 800 ms after the RUB amount stops changing; again on coin change', async () => {
    const api = standardApi();
    await open();
    const lookups = () => api.callsTo('GET', '/api/rates/calculate').map((c) => c.query);
    expect(lookups()).toHaveLength(1);
    expect(Object.fromEntries(lookups()[0] ?? [])).toEqual({
      amount: '1000',
      currency: 'RUB',
      operation: 'SELL',
      cryptoCurrency: 'USDC',
      paymentMethod: 'P2P',
    });

    type('fiatAmount', '50');
    await advance(500);
    type('fiatAmount', '5000');
    await advance(799);
    expect(lookups()).toHaveLength(1);
    await advance(1);
    expect(lookups()).toHaveLength(2);
    expect(Object.fromEntries(lookups()[1] ?? [])).toMatchObject({
      amount: '5000',
      operation: 'SELL',
      paymentMethod: 'P2P',
    });

    coin('USDT');
    await settle();
    const last = lookups().at(-1);
    expect(last?.get('cryptoCurrency')).toBe('USDT');
    expect(last?.get('operation')).toBe('SELL');
  });

  it("shows 'Loading rate...' and keeps Continue disabled while there is no rate", async () => {
    standardApi({ status: 500, json: { error: 'down', code: 'INTERNAL' } });
    await open();
    fillValid();
    expect(screen.getByTestId('rate').textContent).toBe('Loading rate...');
    expect(continueButton().disabled).toBe(true);
  });
});

describe('coin and network lists', () => {
  it('USDC starts on BASE with the P2P USDC list; USDT resets to BEP20 with the P2P USDT list; back to USDC resets to BASE', async () => {
    standardApi();
    await open();
    expect(networkSelect().value).toBe('BASE');
    expect(networkOptions()).toEqual(['BASE', 'POLYGON', 'BEP20', 'ERC20', 'TRC20', 'ARBITRUM']);
    coin('USDT');
    await settle();
    expect(networkSelect().value).toBe('BEP20');
    expect(networkOptions()).toEqual([
      'BEP20',
      'TRC20',
      'POLYGON',
      'ERC20',
      'ARBITRUM',
      'OPTIMISM',
    ]);
    fireEvent.change(networkSelect(), { target: { value: 'TRC20' } });
    expect(networkSelect().value).toBe('TRC20');
    coin('USDC');
    await settle();
    expect(networkSelect().value).toBe('BASE');
  });
});

describe('card details', () => {
  it("the card number keeps digits only, at most 16, shown in groups of 4 ('2200 7001 2345 6781')", async () => {
    standardApi();
    await open();
    type('cardNumber', '2200-7001 abc 2345.6781');
    expect(input('cardNumber').value).toBe('2200 7001 2345 6781');
    type('cardNumber', '22007001234567819999');
    expect(input('cardNumber').value).toBe('2200 7001 2345 6781');
    type('cardNumber', '22007');
    expect(input('cardNumber').value).toBe('2200 7');
    type('cardNumber', 'card');
    expect(input('cardNumber').value).toBe('');
  });

  it('the holder is shown in upper case', async () => {
    standardApi();
    await open();
    type('cardHolder', 'ivan petrov');
    expect(input('cardHolder').value).toBe('IVAN PETROV');
    type('cardHolder', 'Иван Петров');
    expect(input('cardHolder').value).toBe('ИВАН ПЕТРОВ');
  });
});

describe('Continue', () => {
  it('is disabled while crypto amount, card number, holder or bank name is empty; phone and comment are optional', async () => {
    standardApi();
    await open();
    expect(continueButton().disabled).toBe(true);
    fillValid();
    expect(input('phone').value).toBe('');
    expect(input('comment').value).toBe('');
    expect(continueButton().disabled).toBe(false);

    const required: [string, string][] = [
      ['cryptoAmount', '100'],
      ['cardNumber', CARD],
      ['cardHolder', 'IVAN PETROV'],
      ['bankName', 'T-Bank'],
    ];
    for (const [name, value] of required) {
      type(name, '');
      expect(continueButton().disabled, `${name} empty`).toBe(true);
      type(name, value);
      expect(continueButton().disabled, `${name} filled again`).toBe(false);
    }
    type('bankName', '   ');
    expect(continueButton().disabled, 'bank name of spaces').toBe(true);
  });
});

describe('the rouble total lies within 3 000 – 500 000', () => {
  it("refuses 2 999 ₽ with 'Minimum amount ₽3,000' and sends nothing", async () => {
    const api = standardApi({ json: { rate: 100 } });
    await open();
    fillValid('29.99');
    expect(input('fiatAmount').value).toBe('2999');
    await submit();
    expect(setup.dialogs.alert).toHaveBeenCalledWith('Minimum amount ₽3,000');
    expect(screen.getByTestId('fiat-error').textContent).toBe('Minimum amount ₽3,000');
    expect(creates(api)).toHaveLength(0);
  });

  it("refuses 500 001 RUB with 'Maximum amount ₽500,000' and sends nothing", async () => {
    const api = standardApi({ json: { rate: 100 } });
    await open();
    fillValid('5000.01');
    expect(input('fiatAmount').value).toBe('500001');
    await submit();
    expect(setup.dialogs.alert).toHaveBeenCalledWith('Maximum amount ₽500,000');
    expect(creates(api)).toHaveLength(0);
  });

  it("in Russian refuses 2 999 ₽ with 'Минимальная сумма 3 000 ₽'", async () => {
    const api = standardApi({ json: { rate: 100 } });
    await open('ru');
    fillValid('29.99');
    await submit();
    expect(plain(setup.dialogs.alert.mock.calls[0]?.[0])).toBe('Минимальная сумма 3 000 ₽');
    expect(plain(screen.getByTestId('fiat-error').textContent)).toBe('Минимальная сумма 3 000 ₽');
    expect(creates(api)).toHaveLength(0);
  });

  it.each([
    ['30', 3000],
    ['5000', 500000],
  ])('accepts the bound: %s coins at 100 = %i RUB', async (crypto, total) => {
    const api = standardApi({ json: { rate: 100 } });
    await open();
    fillValid(crypto);
    await submit();
    expect(setup.dialogs.alert).not.toHaveBeenCalled();
    expect(creates(api)[0]?.body).toMatchObject({ totalRub: total });
  });
});

describe('card and phone checks (caught before any create call)', () => {
  it("a card failing the Luhn check is refused with 'Check the card number: 16 digits, no typos'", async () => {
    const api = standardApi();
    await open();
    fillValid();
    type('cardNumber', CARD_BAD_LUHN);
    await submit();
    expect(setup.dialogs.alert).toHaveBeenCalledWith('Check the card number: 16 digits, no typos');
    expect(screen.getByTestId('card-error').textContent).toBe(
      'Check the card number: 16 digits, no typos',
    );
    expect(creates(api)).toHaveLength(0);
  });

  it('a card of fewer than 16 digits is refused the same way', async () => {
    const api = standardApi();
    await open();
    fillValid();
    type('cardNumber', CARD.slice(0, 15));
    await submit();
    expect(setup.dialogs.alert).toHaveBeenCalledWith('Check the card number: 16 digits, no typos');
    expect(creates(api)).toHaveLength(0);
  });

  it.each(['call me', '12', '+7 900 000-00-00 ext 5'])(
    "a bad phone (%s) is refused with 'Check the phone number'",
    async (phone) => {
      const api = standardApi();
      await open();
      fillValid();
      type('phone', phone);
      await submit();
      expect(setup.dialogs.alert).toHaveBeenCalledWith('Check the phone number');
      expect(screen.getByTestId('phone-error').textContent).toBe('Check the phone number');
      expect(creates(api)).toHaveLength(0);
    },
  );
});

describe('the card holder is typed in Latin letters, as on the card (one rule with the server)', () => {
  it.each([
    ['en', 'Type the name as it is on the card, in Latin letters: IVAN PETROV'],
    ['ru', 'Введите имя как на карте, латинскими буквами: IVAN PETROV'],
  ] as const)(
    '(%s) a Cyrillic holder is refused while typing, before submit, and nothing is sent',
    async (language, text) => {
      const api = standardApi();
      await open(language);
      fillValid();
      type('cardHolder', 'Иван Петров');
      await settle();
      expect(screen.getByTestId('holder-error').textContent).toBe(text);
      await submit();
      expect(setup.dialogs.alert).toHaveBeenCalledWith(text);
      expect(creates(api)).toHaveLength(0);
      type('cardHolder', 'Ivan Petrov');
      await settle();
      expect(screen.queryByTestId('holder-error')).toBeNull();
    },
  );

  it("a server refusal naming fields says which: 'Please check: card holder and phone'", async () => {
    const api = standardApi();
    api.on('POST', CREATE, {
      status: 400,
      json: { error: 'x', code: 'VALIDATION_FAILED', fields: ['cardHolder', 'phone'] },
    });
    await open();
    fillValid();
    await submit();
    expect(setup.dialogs.alert).toHaveBeenCalledWith(
      `${CREATE_FAILED_EN}\nPlease check: card holder and phone`,
    );
  });
});

describe('creating the order: payload and errors', () => {
  it('sends the P2P sell payload, the card number digits only, then opens send-crypto', async () => {
    const api = standardApi();
    const app = await open();
    coin('USDT');
    await settle();
    fireEvent.change(networkSelect(), { target: { value: 'TRC20' } });
    type('cryptoAmount', '100');
    type('cardNumber', '2200 7001 2345 6781');
    type('cardHolder', 'ivan petrov ');
    type('bankName', ' T-Bank ');
    type('phone', '+7 900 000-00-00');
    type('comment', 'evening please');
    await submit();
    expect(creates(api).map((c) => c.body)).toEqual([
      {
        type: 'SELL',
        amount: 100,
        currency: 'RUB',
        cryptoCurrency: 'USDT',
        network: 'TRC20',
        rate: RATE,
        totalRub: 9713,
        cardNumber: CARD,
        cardHolder: 'IVAN PETROV',
        bankName: 'T-Bank',
        phone: '+7 900 000-00-00',
        comment: 'evening please',
        paymentMethod: 'P2P',
      },
    ]);
    expect(app.currentPath()).toBe('/order/ord-1/send-crypto');
  });

  it('without phone and comment sends them empty, from an amount typed in roubles', async () => {
    const api = standardApi();
    const app = await open();
    type('fiatAmount', '5000');
    type('cardNumber', CARD);
    type('cardHolder', 'IVAN PETROV');
    type('bankName', 'Sber');
    await submit();
    expect(creates(api)[0]?.body).toMatchObject({
      type: 'SELL',
      amount: 51.4774,
      cryptoCurrency: 'USDC',
      network: 'BASE',
      totalRub: 5000,
      phone: '',
      comment: '',
    });
    expect(app.currentPath()).toBe('/order/ord-1/send-crypto');
  });

  it.each<[string, FakeReply]>([
    ['a 500 answer', { status: 500, json: { error: 'boom', code: 'INTERNAL' } }],
    ['no answer', 'network-error'],
  ])(
    "alerts 'An error occurred while creating the order. Please try again.' on %s and stays",
    async (_what, reply) => {
      const api = standardApi();
      api.on('POST', CREATE, reply);
      const app = await open();
      fillValid();
      await submit();
      expect(creates(api)).toHaveLength(1);
      expect(setup.dialogs.alert).toHaveBeenCalledWith(CREATE_FAILED_EN);
      expect(app.currentPath()).toBe('/p2p/sell');
      expect(continueButton().disabled).toBe(false);
    },
  );
});
