/**
 * The buy forms (P2P /p2p/buy, bank /bank-account, office /office-exchange), rendered in the real
 * app with the API faked and the clock faked. Each test names the rule it holds; the numbers come
 * from src/shared/limits.ts.
 */
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RATE_UNAVAILABLE_RETRY_MS } from '../../../../src/shared/limits';
import {
  advance,
  deferred,
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
const EVM_WALLET = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
/** The same address with one letter's case flipped: the EIP-55 checksum no longer matches. */
const EVM_WALLET_BAD_CHECKSUM = '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const TRON_WALLET = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';
const TRON_WALLET_BAD_CHECKSUM = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeM';
const CITIES = [
  { id: 'dubai', nameRu: 'Дубай', nameEn: 'Dubai', countryCode: 'AE' },
  { id: 'sharjah', nameRu: 'Шарджа', nameEn: 'Sharjah', countryCode: 'AE' },
];
const CREATE_FAILED_EN = 'An error occurred while creating the order. Please try again.';

type FormPath = '/p2p/buy' | '/bank-account' | '/office-exchange';
/** An amount within each form's bounds (the office form here is in AED). */
const VALID_AMOUNT: Record<FormPath, string> = {
  '/p2p/buy': '5000',
  '/bank-account': '600000',
  '/office-exchange': '25000',
};

const setup = setUpScreenTests();

function standardApi(rate: FakeReply = { json: { rate: RATE } }): FakeApi {
  return fakeApi([
    { method: 'GET', path: '/api/rates/calculate', reply: rate },
    {
      method: 'POST',
      path: '/api/orders/create',
      reply: { json: { success: true, orderId: 'ord-1' } },
    },
    { method: 'GET', path: '/api/cities/AED', reply: { json: { data: CITIES } } },
  ]);
}

async function open(
  path: FormPath,
  options: { language?: 'ru' | 'en'; currency?: string } = {},
): Promise<ReturnType<typeof renderApp>> {
  const code = options.currency ?? (path === '/office-exchange' ? 'AED' : 'RUB');
  sessionStorage.setItem('selectedCurrency', JSON.stringify({ code, symbol: code }));
  const app = renderApp(path, { language: options.language ?? 'en' });
  await settle();
  return app;
}

const continueButton = () => screen.getByTestId<HTMLButtonElement>('continue');
const coin = (code: 'USDT' | 'USDC') =>
  fireEvent.click(screen.getByRole('tab', { name: code, hidden: true }));
/** Intl groups thousands with (narrow) no-break spaces in Russian: compare with plain spaces. */
const plain = (text: string | null | undefined) => (text ?? '').replace(/\s/g, ' ');

async function submit(): Promise<void> {
  fireEvent.click(continueButton());
  await settle();
}

async function pickCity(id: string): Promise<void> {
  const radio = document.querySelector<HTMLInputElement>(`input[name="cityId"][value="${id}"]`);
  if (radio === null) throw new Error(`no city ${id}`);
  fireEvent.click(radio);
  await settle();
}

/** Fills a form with a valid order (and a city at the office). */
async function fillValid(path: FormPath, amount: string): Promise<void> {
  type('fiatAmount', amount);
  type('walletAddress', EVM_WALLET);
  if (path === '/office-exchange') await pickCity('dubai');
}

describe('amount inputs', () => {
  it('the P2P RUB amount takes only digits and one decimal point, a comma becoming a point', async () => {
    standardApi();
    await open('/p2p/buy');
    type('fiatAmount', '1 2a00,5');
    expect(input('fiatAmount').value).toBe('1200.5');
    type('fiatAmount', '12.5.3');
    expect(input('fiatAmount').value).toBe('12.53');
    expect(input('fiatAmount').value.split('.')).toHaveLength(2);
  });

  it('the crypto amount takes only digits and one decimal point, a comma becoming a point', async () => {
    standardApi();
    await open('/p2p/buy');
    type('cryptoAmount', 'x10,25$');
    expect(input('cryptoAmount').value).toBe('10.25');
    type('cryptoAmount', '1.2.3');
    expect(input('cryptoAmount').value).toBe('1.23');
  });

  it('the office amount takes digits and one decimal point too', async () => {
    standardApi();
    await open('/office-exchange');
    type('fiatAmount', '25 000,75');
    expect(input('fiatAmount').value).toBe('25000.75');
  });

  it('the bank RUB amount takes digits only', async () => {
    standardApi();
    await open('/bank-account');
    type('fiatAmount', '12a3,4.5');
    expect(input('fiatAmount').value).toBe('12345');
  });

  it('the bank RUB amount refuses a value above 1 000 000: the field keeps its previous value', async () => {
    standardApi();
    await open('/bank-account');
    type('fiatAmount', '600000');
    type('fiatAmount', '1000001');
    expect(input('fiatAmount').value).toBe('600000');
    type('fiatAmount', '1000000');
    expect(input('fiatAmount').value).toBe('1000000');
  });

  it('the bank crypto amount is ignored when its RUB value would pass 1 000 000', async () => {
    standardApi({ json: { rate: 100 } });
    await open('/bank-account');
    type('cryptoAmount', '6000');
    expect(input('fiatAmount').value).toBe('600000');
    type('cryptoAmount', '10001');
    expect(input('cryptoAmount').value).toBe('6000');
    expect(input('fiatAmount').value).toBe('600000');
  });
});

describe('the RUB and crypto fields recompute each other', () => {
  it.each<FormPath>(['/p2p/buy', '/bank-account', '/office-exchange'])(
    '%s: crypto = amount / rate with 4 decimals',
    async (path) => {
      standardApi();
      await open(path);
      type('fiatAmount', '5000');
      // 5000 / 97.13 = 51.47740…
      expect(input('cryptoAmount').value).toBe('51.4774');
    },
  );

  it.each<FormPath>(['/p2p/buy', '/bank-account', '/office-exchange'])(
    '%s: amount = crypto × rate rounded to a whole number',
    async (path) => {
      standardApi();
      await open(path);
      type('cryptoAmount', '10.5');
      // 10.5 × 97.13 = 1019.865
      expect(input('fiatAmount').value).toBe('1020');
    },
  );

  it('clearing the amount clears the crypto side', async () => {
    standardApi();
    await open('/p2p/buy');
    type('fiatAmount', '5000');
    type('fiatAmount', '');
    expect(input('cryptoAmount').value).toBe('');
  });
});

describe('coin and network lists', () => {
  it.each<FormPath>(['/p2p/buy', '/bank-account', '/office-exchange'])(
    '%s: USDC starts on BASE; switching the coin resets the network to BEP20 for USDT and BASE for USDC',
    async (path) => {
      standardApi();
      await open(path);
      expect(networkSelect().value).toBe('BASE');
      coin('USDT');
      await settle();
      expect(networkSelect().value).toBe('BEP20');
      fireEvent.change(networkSelect(), { target: { value: 'TRC20' } });
      expect(networkSelect().value).toBe('TRC20');
      coin('USDC');
      await settle();
      expect(networkSelect().value).toBe('BASE');
    },
  );

  it('the P2P network lists, per coin and in their order', async () => {
    standardApi();
    await open('/p2p/buy');
    const options = () => [...networkSelect().options].map((o) => o.value);
    expect(options()).toEqual(['BASE', 'POLYGON', 'BEP20', 'ERC20', 'TRC20', 'ARBITRUM']);
    coin('USDT');
    await settle();
    expect(options()).toEqual(['BEP20', 'TRC20', 'POLYGON', 'ERC20', 'ARBITRUM', 'OPTIMISM']);
  });

  it('the bank network lists, per coin and in their order', async () => {
    standardApi();
    await open('/bank-account');
    const options = () => [...networkSelect().options].map((o) => o.value);
    expect(options()).toEqual(['TRC20', 'BEP20', 'POLYGON', 'ERC20', 'BASE', 'ARBITRUM']);
    coin('USDT');
    await settle();
    expect(options()).toEqual(['BEP20', 'TRC20', 'POLYGON', 'ERC20', 'ARBITRUM', 'OPTIMISM']);
  });

  it.each([
    ['en', '0x… address', 'T… address'],
    ['ru', 'Адрес 0x…', 'Адрес T…'],
  ] as const)(
    '(%s) the wallet placeholder follows the network, from the dictionary',
    async (language, evm, tron) => {
      standardApi();
      await open('/p2p/buy', { language });
      expect(input('walletAddress').placeholder).toBe(evm);
      fireEvent.change(networkSelect(), { target: { value: 'TRC20' } });
      expect(input('walletAddress').placeholder).toBe(tron);
      fireEvent.change(networkSelect(), { target: { value: 'ERC20' } });
      expect(input('walletAddress').placeholder).toBe(evm);
    },
  );
});

describe('Continue', () => {
  it.each<FormPath>(['/p2p/buy', '/bank-account'])(
    '%s: disabled until both the amount and the wallet are filled',
    async (path) => {
      standardApi();
      await open(path);
      expect(continueButton().disabled).toBe(true);
      type('fiatAmount', '600000');
      expect(continueButton().disabled).toBe(true);
      type('walletAddress', '   ');
      expect(continueButton().disabled).toBe(true);
      type('walletAddress', EVM_WALLET);
      expect(continueButton().disabled).toBe(false);
      type('fiatAmount', '');
      expect(continueButton().disabled).toBe(true);
    },
  );

  it('office: disabled until amount, wallet and a city are chosen', async () => {
    standardApi();
    await open('/office-exchange');
    type('fiatAmount', '25000');
    type('walletAddress', EVM_WALLET);
    expect(continueButton().disabled).toBe(true);
    await pickCity('dubai');
    expect(continueButton().disabled).toBe(false);
  });

  it.each<FormPath>(['/p2p/buy', '/bank-account', '/office-exchange'])(
    "%s: a failed rate lookup leaves 'Loading rate...' and Continue disabled",
    async (path) => {
      standardApi({ status: 500, json: { error: 'down', code: 'INTERNAL' } });
      await open(path);
      await fillValid(path, VALID_AMOUNT[path]);
      expect(screen.getByTestId('rate').textContent).toBe('Loading rate...');
      expect(continueButton().disabled).toBe(true);
      expect(input('cryptoAmount').disabled).toBe(true);
      expect(console.warn).toHaveBeenCalledWith('rate lookup failed', expect.anything());
    },
  );

  it("a rate lookup that fails after a good one clears the rate: 'Loading rate...' again", async () => {
    let answers = 0;
    const api = standardApi();
    api.on('GET', '/api/rates/calculate', () =>
      ++answers === 1 ? { json: { rate: RATE } } : 'network-error',
    );
    await open('/p2p/buy');
    expect(screen.getByTestId('rate').textContent).toBe('1 USDC = ₽97.13');
    await fillValid('/p2p/buy', '5000');
    expect(continueButton().disabled).toBe(false);
    await advance(800);
    expect(screen.getByTestId('rate').textContent).toBe('Loading rate...');
    expect(continueButton().disabled).toBe(true);
  });

  it.each([
    ['en', 'The rate is being updated…'],
    ['ru', 'Курс обновляется…'],
  ] as const)(
    '%s: a pair the server cannot quote (RATE_UNAVAILABLE) says the rate is being updated, keeps what was typed, and asks again every RATE_UNAVAILABLE_RETRY_MS until it is back',
    async (language, updating) => {
      let unavailable = true;
      const api = standardApi();
      api.on('GET', '/api/rates/calculate', () =>
        unavailable
          ? { status: 503, json: { error: 'updating', code: 'RATE_UNAVAILABLE' } }
          : { json: { rate: RATE } },
      );
      await open('/p2p/buy', { language });
      await fillValid('/p2p/buy', '5000');
      await advance(800);
      expect(screen.getByTestId('rate').textContent).toBe(updating);
      expect(continueButton().disabled).toBe(true);
      const asked = api.callsTo('GET', '/api/rates/calculate').length;
      await advance(RATE_UNAVAILABLE_RETRY_MS - 1_000);
      expect(api.callsTo('GET', '/api/rates/calculate')).toHaveLength(asked);
      unavailable = false;
      await advance(1_000);
      expect(api.callsTo('GET', '/api/rates/calculate')).toHaveLength(asked + 1);
      expect(plain(screen.getByTestId('rate').textContent)).toMatch(/97[.,]13/);
      expect(input('fiatAmount').value).toBe('5000');
      expect(continueButton().disabled).toBe(false);
      await advance(RATE_UNAVAILABLE_RETRY_MS);
      expect(api.callsTo('GET', '/api/rates/calculate')).toHaveLength(asked + 1);
    },
  );

  it('is disabled while the order is being created', async () => {
    const api = standardApi();
    const held = deferred<FakeReply>();
    api.on('POST', '/api/orders/create', () => held.promise);
    await open('/p2p/buy');
    await fillValid('/p2p/buy', '5000');
    await submit();
    expect(continueButton().disabled).toBe(true);
    held.resolve({ json: { success: true, orderId: 'ord-1' } });
    await settle();
    expect(api.callsTo('POST', '/api/orders/create')).toHaveLength(1);
  });
});

describe('minimum and maximum', () => {
  it("P2P refuses 2 999 ₽ with 'Minimum amount ₽3,000' and sends nothing", async () => {
    const api = standardApi();
    await open('/p2p/buy');
    await fillValid('/p2p/buy', '2999');
    await submit();
    expect(setup.dialogs.alert).toHaveBeenCalledWith('Minimum amount ₽3,000');
    expect(screen.getByTestId('fiat-error').textContent).toBe('Minimum amount ₽3,000');
    expect(api.callsTo('POST', '/api/orders/create')).toHaveLength(0);
  });

  it("P2P in Russian refuses 2 999 ₽ with 'Минимальная сумма 3 000 ₽'", async () => {
    standardApi();
    await open('/p2p/buy', { language: 'ru' });
    await fillValid('/p2p/buy', '2999');
    await submit();
    expect(plain(screen.getByTestId('fiat-error').textContent)).toBe('Минимальная сумма 3 000 ₽');
    expect(plain(setup.dialogs.alert.mock.calls[0]?.[0] as string)).toBe(
      'Минимальная сумма 3 000 ₽',
    );
  });

  it("P2P refuses 500 001 RUB with 'Maximum amount ₽500,000'", async () => {
    const api = standardApi();
    await open('/p2p/buy');
    await fillValid('/p2p/buy', '500001');
    await submit();
    expect(setup.dialogs.alert).toHaveBeenCalledWith('Maximum amount ₽500,000');
    expect(api.callsTo('POST', '/api/orders/create')).toHaveLength(0);
  });

  it.each(['3000', '500000'])('P2P accepts the bound %s RUB', async (amount) => {
    const api = standardApi();
    await open('/p2p/buy');
    await fillValid('/p2p/buy', amount);
    await submit();
    expect(api.callsTo('POST', '/api/orders/create')[0]?.body).toMatchObject({
      totalRub: Number(amount),
    });
  });

  it("bank refuses 499 999 ₽ on continue with 'Минимальная сумма 500 000 ₽', inline and without an alert", async () => {
    const api = standardApi();
    await open('/bank-account', { language: 'ru' });
    await fillValid('/bank-account', '499999');
    await submit();
    expect(plain(screen.getByTestId('fiat-error').textContent)).toBe('Минимальная сумма 500 000 ₽');
    expect(setup.dialogs.alert).not.toHaveBeenCalled();
    expect(api.callsTo('POST', '/api/orders/create')).toHaveLength(0);
  });

  it("office AED refuses 19 999 with 'Minimum amount AED 20,000' and 400 001 with 'Maximum amount AED 400,000'", async () => {
    const api = standardApi();
    await open('/office-exchange');
    await fillValid('/office-exchange', '19999');
    await submit();
    expect(plain(screen.getByTestId('fiat-error').textContent)).toBe('Minimum amount AED 20,000');
    type('fiatAmount', '400001');
    await settle();
    expect(plain(screen.getByTestId('fiat-error').textContent)).toBe('Maximum amount AED 400,000');
    expect(api.callsTo('POST', '/api/orders/create')).toHaveLength(0);
    expect(setup.dialogs.alert).not.toHaveBeenCalled();
  });

  it('office USD uses its own bounds: 4 999 refused with its own sign', async () => {
    const api = standardApi({ json: { rate: 1.02 } });
    api.on('GET', '/api/cities/USD', { json: { data: [{ ...CITIES[0], id: 'nyc' }] } });
    await open('/office-exchange', { currency: 'USD' });
    type('fiatAmount', '4999');
    type('walletAddress', EVM_WALLET);
    await pickCity('nyc');
    await submit();
    expect(screen.getByTestId('fiat-error').textContent).toBe('Minimum amount $5,000');
  });
});

describe('wallet address (caught before any create call)', () => {
  it.each([
    ['BASE', 'not-an-address', 'a malformed address'],
    ['BASE', EVM_WALLET_BAD_CHECKSUM, 'an EIP-55 checksum that does not match'],
    ['TRC20', TRON_WALLET_BAD_CHECKSUM, 'a Tron checksum that does not match'],
    ['TRC20', EVM_WALLET, 'an EVM address on Tron'],
  ])('P2P on %s refuses %s (%s)', async (network, wallet) => {
    const api = standardApi();
    await open('/p2p/buy');
    fireEvent.change(networkSelect(), { target: { value: network } });
    type('fiatAmount', '5000');
    type('walletAddress', wallet);
    await submit();
    expect(screen.getByTestId('wallet-error').textContent).toBe(
      `Invalid wallet address for ${network}`,
    );
    expect(setup.dialogs.alert).toHaveBeenCalledWith(`Invalid wallet address for ${network}`);
    expect(api.callsTo('POST', '/api/orders/create')).toHaveLength(0);
  });

  it.each<FormPath>(['/bank-account', '/office-exchange'])(
    '%s refuses a bad checksum inline, sending nothing',
    async (path) => {
      const api = standardApi();
      await open(path);
      await fillValid(path, VALID_AMOUNT[path]);
      type('walletAddress', EVM_WALLET_BAD_CHECKSUM);
      await submit();
      expect(screen.getByTestId('wallet-error').textContent).toBe(
        'Invalid wallet address for BASE',
      );
      expect(api.callsTo('POST', '/api/orders/create')).toHaveLength(0);
    },
  );

  it('accepts a valid Tron address on TRC20', async () => {
    const api = standardApi();
    await open('/p2p/buy');
    fireEvent.change(networkSelect(), { target: { value: 'TRC20' } });
    type('fiatAmount', '5000');
    type('walletAddress', TRON_WALLET);
    await submit();
    expect(api.callsTo('POST', '/api/orders/create')).toHaveLength(1);
  });
});

describe('language: errors follow a switch', () => {
  it('switching the language re-translates errors already shown', async () => {
    standardApi();
    await open('/p2p/buy');
    type('fiatAmount', '2999');
    type('walletAddress', 'nope');
    await submit();
    expect(screen.getByTestId('fiat-error').textContent).toBe('Minimum amount ₽3,000');
    fireEvent.click(screen.getByRole('button', { name: 'RU' }));
    await settle();
    expect(plain(screen.getByTestId('fiat-error').textContent)).toBe('Минимальная сумма 3 000 ₽');
    expect(localStorage.getItem('selectedLanguage')).toBe('ru');

    // The amount fixed, the wallet is the first problem left; it too follows the language.
    type('fiatAmount', '5000');
    type('walletAddress', 'still-not-an-address');
    await settle();
    expect(screen.queryByTestId('fiat-error')).toBeNull();
    expect(screen.getByTestId('wallet-error').textContent).toBe(
      'Неверный адрес кошелька для сети BASE',
    );
    fireEvent.click(screen.getByRole('button', { name: 'EN' }));
    await settle();
    expect(screen.getByTestId('wallet-error').textContent).toBe('Invalid wallet address for BASE');
  });
});

describe('the live rate', () => {
  it('P2P: the first lookup uses amount=1000; it repeats on coin change and 800 ms after typing stops', async () => {
    const api = standardApi();
    await open('/p2p/buy');
    const lookups = () => api.callsTo('GET', '/api/rates/calculate').map((c) => c.query);
    expect(lookups()).toHaveLength(1);
    expect(Object.fromEntries(lookups()[0] ?? [])).toEqual({
      amount: '1000',
      currency: 'RUB',
      operation: 'BUY',
      cryptoCurrency: 'USDC',
      paymentMethod: 'P2P',
    });

    type('fiatAmount', '5');
    await advance(500);
    type('fiatAmount', '50');
    await advance(500);
    type('fiatAmount', '5000');
    await advance(799);
    expect(lookups()).toHaveLength(1);
    await advance(1);
    expect(lookups()).toHaveLength(2);
    expect(lookups()[1]?.get('amount')).toBe('5000');

    coin('USDT');
    await settle();
    expect(lookups()).toHaveLength(3);
    expect(lookups()[2]?.get('cryptoCurrency')).toBe('USDT');
    expect(lookups()[2]?.get('amount')).toBe('1000');
  });

  it('bank: looks up with BANK_ACCOUNT, and after typing only once the amount reaches 500 000, 500 ms later', async () => {
    const api = standardApi();
    await open('/bank-account');
    const lookups = () => api.callsTo('GET', '/api/rates/calculate').map((c) => c.query);
    expect(lookups()).toHaveLength(1);
    expect(lookups()[0]?.get('amount')).toBe('1000');
    expect(lookups()[0]?.get('paymentMethod')).toBe('BANK_ACCOUNT');
    type('fiatAmount', '499999');
    await advance(2000);
    expect(lookups()).toHaveLength(1);
    type('fiatAmount', '500000');
    await advance(499);
    expect(lookups()).toHaveLength(1);
    await advance(1);
    expect(lookups()).toHaveLength(2);
    expect(lookups()[1]?.get('amount')).toBe('500000');
  });

  it('office: looks up in the chosen currency with OFFICE', async () => {
    const api = standardApi();
    await open('/office-exchange');
    const first = api.callsTo('GET', '/api/rates/calculate')[0]?.query;
    expect(first?.get('currency')).toBe('AED');
    expect(first?.get('paymentMethod')).toBe('OFFICE');
  });

  it('a new rate recomputes the crypto side from the amount', async () => {
    const api = standardApi({ json: { rate: 100 } });
    await open('/p2p/buy');
    type('fiatAmount', '5000');
    expect(input('cryptoAmount').value).toBe('50');
    api.on('GET', '/api/rates/calculate', { json: { rate: 125 } });
    await advance(800);
    expect(input('cryptoAmount').value).toBe('40');
  });
});

describe('creating the order: payloads and errors', () => {
  it('P2P sends type, amount, currency, coin, network, rate, totalRub, wallet and P2P, then opens waiting', async () => {
    const api = standardApi();
    const app = await open('/p2p/buy');
    type('fiatAmount', '5000');
    type('walletAddress', `  ${EVM_WALLET} `);
    await submit();
    expect(api.callsTo('POST', '/api/orders/create').map((c) => c.body)).toEqual([
      {
        type: 'BUY',
        amount: 51.4774,
        currency: 'RUB',
        cryptoCurrency: 'USDC',
        network: 'BASE',
        rate: RATE,
        totalRub: 5000,
        walletAddress: EVM_WALLET,
        paymentMethod: 'P2P',
      },
    ]);
    expect(app.currentPath()).toBe('/order/ord-1/waiting');
  });

  it('P2P with USDT on TRC20 sends that coin and network', async () => {
    const api = standardApi();
    await open('/p2p/buy');
    coin('USDT');
    await settle();
    fireEvent.change(networkSelect(), { target: { value: 'TRC20' } });
    type('fiatAmount', '10000');
    type('walletAddress', TRON_WALLET);
    await submit();
    expect(api.callsTo('POST', '/api/orders/create')[0]?.body).toMatchObject({
      cryptoCurrency: 'USDT',
      network: 'TRC20',
      walletAddress: TRON_WALLET,
      totalRub: 10000,
    });
  });

  it('bank sends BANK_ACCOUNT without a city, then opens bank-requisites', async () => {
    const api = standardApi();
    const app = await open('/bank-account');
    await fillValid('/bank-account', '600000');
    await advance(500);
    await submit();
    expect(api.callsTo('POST', '/api/orders/create').map((c) => c.body)).toEqual([
      {
        type: 'BUY',
        amount: 6177.2882,
        currency: 'RUB',
        cryptoCurrency: 'USDC',
        network: 'BASE',
        rate: RATE,
        totalRub: 600000,
        walletAddress: EVM_WALLET,
        paymentMethod: 'BANK_ACCOUNT',
      },
    ]);
    expect(app.currentPath()).toBe('/order/ord-1/bank-requisites');
  });

  it('office sends OFFICE with the city and the chosen currency, then opens office-waiting', async () => {
    const api = standardApi();
    const app = await open('/office-exchange');
    type('fiatAmount', '25000');
    type('walletAddress', EVM_WALLET);
    await pickCity('sharjah');
    await submit();
    expect(api.callsTo('POST', '/api/orders/create').map((c) => c.body)).toEqual([
      {
        type: 'BUY',
        amount: 257.387,
        currency: 'AED',
        cryptoCurrency: 'USDC',
        network: 'BASE',
        rate: RATE,
        totalRub: 25000,
        walletAddress: EVM_WALLET,
        paymentMethod: 'OFFICE',
        cityId: 'sharjah',
      },
    ]);
    expect(app.currentPath()).toBe('/order/ord-1/office-waiting');
  });

  it('office lists the cities of the currency in the customer’s language', async () => {
    standardApi();
    await open('/office-exchange', { language: 'ru' });
    expect(screen.getByTestId('city-list').textContent).toContain('Дубай');
    expect(screen.getByTestId('city-list').textContent).toContain('Шарджа');
  });

  it.each([
    ['en', 'Could not load the cities. Check the connection and try again.'],
    ['ru', 'Не удалось загрузить города. Проверьте соединение и попробуйте ещё раз.'],
  ] as const)(
    '(%s) a failed cities load says so and offers a retry, instead of loading forever',
    async (language, text) => {
      const api = standardApi();
      api.on('GET', '/api/cities/AED', 'network-error');
      await open('/office-exchange', { language });
      expect(screen.getByTestId('cities-failed').textContent).toContain(text);
      api.on('GET', '/api/cities/AED', { json: { data: CITIES } });
      fireEvent.click(screen.getByTestId('cities-retry'));
      await settle();
      expect(screen.queryByTestId('cities-failed')).toBeNull();
      expect(screen.getByTestId('city-list').textContent).toContain(
        language === 'ru' ? 'Дубай' : 'Dubai',
      );
    },
  );

  describe('RATE_CHANGED', () => {
    function rateChangedApi(): FakeApi {
      const api = standardApi();
      api.on('POST', '/api/orders/create', (call) =>
        (call.body as { rate: number }).rate === 99.5
          ? { json: { success: true, orderId: 'ord-2' } }
          : { status: 409, json: { code: 'RATE_CHANGED', rate: 99.5, error: 'Rate changed' } },
      );
      return api;
    }

    it('asks the customer with the new rate and sends nothing more when declined', async () => {
      setup.dialogs.confirm.mockReturnValue(false);
      const api = rateChangedApi();
      const app = await open('/p2p/buy');
      await fillValid('/p2p/buy', '5000');
      await submit();
      expect(setup.dialogs.confirm).toHaveBeenCalledTimes(1);
      expect(setup.dialogs.confirm.mock.calls[0]?.[0]).toBe(
        'New rate: ₽99.50. You pay ₽5,000 and get 50.2513 USDC. Continue?',
      );
      await advance(5000);
      expect(api.callsTo('POST', '/api/orders/create')).toHaveLength(1);
      expect(app.currentPath()).toBe('/p2p/buy');
      expect(setup.dialogs.alert).not.toHaveBeenCalled();
      expect(continueButton().disabled).toBe(false);
    });

    it('sends again with the new rate when confirmed, then opens the order', async () => {
      setup.dialogs.confirm.mockReturnValue(true);
      const api = rateChangedApi();
      const app = await open('/p2p/buy');
      await fillValid('/p2p/buy', '5000');
      await submit();
      const bodies = api.callsTo('POST', '/api/orders/create').map((c) => c.body);
      expect(bodies).toHaveLength(2);
      expect(bodies[0]).toMatchObject({ rate: RATE, amount: 51.4774, totalRub: 5000 });
      expect(bodies[1]).toMatchObject({ rate: 99.5, amount: 50.2513, totalRub: 5000 });
      expect(app.currentPath()).toBe('/order/ord-2/waiting');
    });

    it('bank asks too and, confirmed, opens bank-requisites', async () => {
      setup.dialogs.confirm.mockReturnValue(true);
      const api = rateChangedApi();
      const app = await open('/bank-account');
      await fillValid('/bank-account', '600000');
      await submit();
      expect(setup.dialogs.confirm).toHaveBeenCalledTimes(1);
      expect(api.callsTo('POST', '/api/orders/create')[1]?.body).toMatchObject({ rate: 99.5 });
      expect(app.currentPath()).toBe('/order/ord-2/bank-requisites');
    });
  });

  it.each<[string, FakeReply]>([
    ['a 500 answer', { status: 500, json: { error: 'boom', code: 'INTERNAL' } }],
    ['no answer', 'network-error'],
  ])(
    "P2P alerts 'An error occurred while creating the order. Please try again.' on %s and stays",
    async (_what, reply) => {
      const api = standardApi();
      api.on('POST', '/api/orders/create', reply);
      const app = await open('/p2p/buy');
      await fillValid('/p2p/buy', '5000');
      await submit();
      expect(setup.dialogs.alert).toHaveBeenCalledWith(CREATE_FAILED_EN);
      expect(screen.queryByTestId('create-error')).toBeNull();
      expect(app.currentPath()).toBe('/p2p/buy');
      expect(continueButton().disabled).toBe(false);
    },
  );

  it.each<FormPath>(['/bank-account', '/office-exchange'])(
    '%s shows a failed creation inline in red, without an alert, and stays',
    async (path) => {
      const api = standardApi();
      api.on('POST', '/api/orders/create', {
        status: 500,
        json: { error: 'boom', code: 'INTERNAL' },
      });
      const app = await open(path);
      await fillValid(path, VALID_AMOUNT[path]);
      await submit();
      const shown = screen.getByTestId('create-error');
      expect(shown.textContent).toBe(CREATE_FAILED_EN);
      expect(shown.className).toContain('form-error');
      expect(setup.dialogs.alert).not.toHaveBeenCalled();
      expect(app.currentPath()).toBe(path);
    },
  );

  it('a failure the server explains (too many active orders) adds its reason under the message', async () => {
    const api = standardApi();
    api.on('POST', '/api/orders/create', {
      status: 409,
      json: { error: 'x', code: 'TOO_MANY_ACTIVE_ORDERS' },
    });
    await open('/bank-account');
    await fillValid('/bank-account', '600000');
    await submit();
    const text = screen.getByTestId('create-error').textContent;
    expect(text.startsWith(CREATE_FAILED_EN)).toBe(true);
    expect(text.length).toBeGreaterThan(CREATE_FAILED_EN.length);
  });
});
