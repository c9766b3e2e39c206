/**
 * The sell after its order exists: /order/{id}/send-crypto shows
 * what to send and where, takes the transaction hash (required after trimming, checked for the
 * network before anything is sent) and cancels on confirmation (every screen's cancel and support:
 * order-help.test.tsx); /order/{id}/sell-waiting shows the chain check. Where both go as the
 * status moves on: the table-driven tests of order-screens.test.tsx. The API and the clock are faked; each test names the rule it holds.
 */
import { fireEvent, screen } from '@testing-library/react';
import { encode } from 'uqr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OrderDetails } from '../../../../src/shared/api';
import type { NetworkId } from '../../../../src/shared/networks';
import {
  advance,
  fakeApi,
  renderApp,
  settle,
  type FakeReply,
  setUpScreenTests,
} from '../../../helpers/render-app';
import {
  FIXTURE_SELL,
  FIXTURE_TRON_DEPOSIT,
  iso,
  serveOrder as serveFixture,
  type ServedOrder,
} from '../../../helpers/order-fixtures';

const NOW = Date.parse('2025-03-01T12:00:00.000Z');
const ID = 'ord-7';
const STATUS = `/api/orders/${ID}/status`;
const TX_HASH = `/api/orders/${ID}/tx-hash`;
const CANCEL = `/api/orders/${ID}/cancel`;
const TRON_DEPOSIT = FIXTURE_TRON_DEPOSIT;
const EVM_DEPOSIT = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const HEX64 = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';
const CREATE_FAILED_EN = 'An error occurred while creating the order. Please try again.';

const SELL: Partial<OrderDetails> = { ...FIXTURE_SELL, id: ID };

function serveOrder(fields: Partial<OrderDetails> = {}): ServedOrder {
  return serveFixture(SELL, fields, {
    routes: () => [
      { method: 'POST', path: TX_HASH, reply: { json: { success: true, status: 'TX_PENDING' } } },
      { method: 'POST', path: CANCEL, reply: { json: { success: true, status: 'CANCELLED' } } },
    ],
  });
}

const path = (name: string) => `/order/${ID}/${name}`;

async function openSendCrypto(
  fields: Partial<OrderDetails> = {},
  language: 'en' | 'ru' = 'en',
): Promise<ServedOrder & { app: ReturnType<typeof renderApp> }> {
  const served = serveOrder(fields);
  const app = renderApp(path('send-crypto'), { language });
  await settle();
  return { ...served, app };
}

function txInput(): HTMLInputElement {
  const element = document.querySelector<HTMLInputElement>('input[name="txHash"]');
  if (element === null) throw new Error('no tx hash input');
  return element;
}

const typeHash = (value: string) => fireEvent.change(txInput(), { target: { value } });
const submitButton = () => screen.getByTestId<HTMLButtonElement>('submit-tx');

async function submitHash(): Promise<void> {
  fireEvent.click(submitButton());
  await settle();
}

const setup = setUpScreenTests(NOW);
let writeText: ReturnType<typeof vi.fn<(text: string) => Promise<void>>>;

beforeEach(() => {
  writeText = vi.fn<(text: string) => Promise<void>>(() => Promise.resolve());
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});

afterEach(() => {
  Reflect.deleteProperty(navigator, 'clipboard');
});

/** The exact amount a sell is given: 100 USDT asked for, tagged in the 4th decimal. */
const EXACT = 100.0437;

/** Whether `a` comes before `b` in the document. */
const before = (a: Element, b: Element) =>
  (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;

describe('send-crypto shows what to send and where', () => {
  it('shows the amount with its coin, the network and the roubles to receive', async () => {
    await openSendCrypto();
    expect(screen.getByTestId('send-amount').textContent).toBe('100 USDT');
    expect(screen.getByTestId('send-amount').dataset['copyValue']).toBe('100');
    expect(screen.getByTestId('send-network').textContent).toContain('TRC20 (Tron)');
    expect(screen.getByTestId('send-receive').textContent).toContain('₽9,713');
  });

  it('shows the deposit address of the requisites, and a tap copies it', async () => {
    await openSendCrypto();
    const row = screen.getByTestId('deposit-address');
    expect(row.textContent).toContain(TRON_DEPOSIT);
    expect(row.textContent).toContain('Copy');
    fireEvent.click(row);
    await settle();
    expect(writeText).toHaveBeenCalledWith(TRON_DEPOSIT);
    expect(row.textContent).toContain('Copied');
  });

  it('shows the deposit address as a QR code (an svg) encoding that address', async () => {
    await openSendCrypto({ network: 'BEP20', requisites: { walletAddress: EVM_DEPOSIT } });
    const qr = screen.getByTestId('qr-code');
    expect(qr.tagName.toLowerCase()).toBe('svg');
    const expected = encode(EVM_DEPOSIT, { ecc: 'M', border: 2 });
    expect(qr.getAttribute('viewBox')).toBe(`0 0 ${expected.size} ${expected.size}`);
    const dark = expected.data.flat().filter(Boolean).length;
    const drawn = (qr.querySelector('path')?.getAttribute('d') ?? '').split('z').length - 1;
    expect(drawn).toBe(dark);
    expect(dark).toBeGreaterThan(0);
  });

  it('warns to send only this coin on this network', async () => {
    await openSendCrypto();
    expect(screen.getByTestId('network-warning').textContent).toBe(
      'Send only USDT on TRC20 (Tron). Funds sent on another network will be lost.',
    );
  });

  it("a missing order (404) shows 'Order not found'", async () => {
    fakeApi([
      {
        method: 'GET',
        path: STATUS,
        reply: { status: 404, json: { error: 'x', code: 'ORDER_NOT_FOUND' } },
      },
    ]);
    renderApp(path('send-crypto'), { language: 'en' });
    await settle();
    expect(screen.getByText('Order not found')).toBeTruthy();
    expect(document.querySelector('input[name="txHash"]')).toBeNull();
  });
});

describe('send-crypto gives the exact amount first: one deposit address serves every seller', () => {
  it.each([
    [
      'en',
      'Send exactly',
      '100.0437 USDT',
      'To the last digit, in one transfer: these digits tell us the transfer is yours. If your wallet or exchange charges a fee, it must come on top of this amount. Any other amount is checked by an operator by hand, which takes longer.',
    ],
    [
      'ru',
      'Отправьте ровно',
      '100,0437 USDT',
      'До последней цифры и одним переводом: по этим цифрам мы узнаём ваш перевод. Если кошелёк или биржа берёт комиссию, она должна быть сверх этой суммы. Любую другую сумму проверяет оператор вручную, это дольше.',
    ],
  ] as const)(
    '(%s) "%s" heads the amount %s, above the order\'s rows, with the plain note under it',
    async (language, heading, figure, note) => {
      await openSendCrypto({ amount: EXACT, expiresAt: iso(NOW + 30 * 60_000) }, language);
      const section = screen.getByRole('region', { name: heading });
      const amount = screen.getByTestId('send-amount');
      expect(section.contains(amount)).toBe(true);
      expect(amount.textContent).toBe(figure);
      const line = screen.getByTestId('exact-amount-note');
      expect(screen.getAllByRole('note')).toContain(line);
      // Said on the screen, not kept in a tooltip or for screen readers only.
      expect(line.closest('[hidden], [aria-hidden="true"], .visually-hidden')).toBeNull();
      expect(line.textContent).toBe(note);
      expect(section.contains(line)).toBe(true);
      expect(before(screen.getByRole('heading', { name: heading }), amount)).toBe(true);
      expect(before(amount, line)).toBe(true);
      // First on the screen after the countdown: before the order number, the network and the address.
      expect(before(screen.getByTestId('countdown'), section)).toBe(true);
      expect(before(line, screen.getByTestId('send-network'))).toBe(true);
      expect(before(line, screen.getByTestId('deposit-address'))).toBe(true);
    },
  );

  it.each(['en', 'ru'] as const)(
    '(%s) the amount is shown once: no "You send" row repeats it',
    async (language) => {
      await openSendCrypto({ amount: EXACT }, language);
      const digits = language === 'en' ? '100.0437' : '100,0437';
      expect(document.body.textContent.split(digits)).toHaveLength(2);
      expect(screen.queryByText(language === 'en' ? 'You send' : 'Вы отправляете')).toBeNull();
    },
  );

  it.each([
    ['en', 100.0437, '100.0437'],
    ['ru', 100_000.0437, '100000.0437'],
    // What a sum of floats can leave behind: the copy is still the amount's exact decimal.
    ['en', (100.0437 / 45) * 45, '100.0437'],
    ['en', 0.1 + 0.2, '0.3'],
  ] as const)(
    '(%s) Copy gives %d as the bare decimal "%s": no grouping, no coin, no float artefact',
    async (language, amount, copied) => {
      await openSendCrypto({ amount }, language);
      const button = screen.getByTestId('copy-amount');
      expect(button.textContent).toBe(language === 'en' ? 'Copy' : 'Копировать');
      fireEvent.click(button);
      await settle();
      expect(writeText).toHaveBeenCalledExactlyOnceWith(copied);
      expect(button.textContent).toBe(language === 'en' ? 'Copied' : 'Скопировано');
    },
  );

  it('the network and "You receive" rows have no copy: a tap on them copies nothing', async () => {
    await openSendCrypto({ amount: EXACT });
    for (const id of ['send-network', 'send-receive']) {
      const row = screen.getByTestId(id);
      expect(row.textContent).not.toMatch(/Copy/);
      expect(row.dataset['copyValue']).toBeUndefined();
      fireEvent.click(row);
      await settle();
    }
    expect(writeText).not.toHaveBeenCalled();
    // What can be copied: the amount and the deposit address, nothing else.
    expect(screen.getAllByText('Copy')).toHaveLength(2);
  });

  it('the QR code still encodes the bare address, not the amount', async () => {
    await openSendCrypto({ amount: EXACT });
    const expected = encode(TRON_DEPOSIT, { ecc: 'M', border: 2 });
    const qr = screen.getByTestId('qr-code');
    expect(qr.getAttribute('viewBox')).toBe(`0 0 ${expected.size} ${expected.size}`);
    const dark = expected.data.flat().filter(Boolean).length;
    expect((qr.querySelector('path')?.getAttribute('d') ?? '').split('z').length - 1).toBe(dark);
  });
});

describe('the transaction hash', () => {
  it('is required after trimming: Submit is disabled while the field is empty or only spaces', async () => {
    await openSendCrypto();
    expect(submitButton().disabled).toBe(true);
    typeHash('   ');
    expect(submitButton().disabled).toBe(true);
    typeHash(` ${HEX64} `);
    expect(submitButton().disabled).toBe(false);
    typeHash('\t');
    expect(submitButton().disabled).toBe(true);
  });

  it.each<[NetworkId, string, string]>([
    ['TRC20', 'a 0x hash', `0x${HEX64}`],
    ['TRC20', '63 hex characters', HEX64.slice(1)],
    ['TRC20', 'a non-hex character', `${HEX64.slice(1)}g`],
    ['BEP20', 'a hash without 0x', HEX64],
  ])(
    "%s refuses %s with 'Invalid transaction hash for <network>' and posts nothing",
    async (network, _what, hash) => {
      const { api, app } = await openSendCrypto({
        network,
        requisites: { walletAddress: network === 'TRC20' ? TRON_DEPOSIT : EVM_DEPOSIT },
      });
      typeHash(hash);
      await submitHash();
      expect(screen.getByTestId('tx-error').textContent).toBe(
        `Invalid transaction hash for ${network}`,
      );
      expect(api.callsTo('POST', TX_HASH)).toHaveLength(0);
      expect(app.currentPath()).toBe(path('send-crypto'));
    },
  );

  it('a valid TRC20 hash is posted trimmed with its network to /api/orders/<id>/tx-hash, then sell-waiting opens', async () => {
    const { api, app } = await openSendCrypto();
    typeHash(`  ${HEX64}\n`);
    await submitHash();
    expect(api.callsTo('POST', TX_HASH).map((c) => c.body)).toEqual([
      { txHash: HEX64, network: 'TRC20' },
    ]);
    expect(app.currentPath()).toBe(path('sell-waiting'));
    expect(setup.dialogs.alert).not.toHaveBeenCalled();
  });

  it('a valid EVM hash (0x + 64 hex) is posted with its network', async () => {
    const { api, app } = await openSendCrypto({
      network: 'BEP20',
      requisites: { walletAddress: EVM_DEPOSIT },
    });
    typeHash(`0x${HEX64}`);
    await submitHash();
    expect(api.callsTo('POST', TX_HASH).map((c) => c.body)).toEqual([
      { txHash: `0x${HEX64}`, network: 'BEP20' },
    ]);
    expect(app.currentPath()).toBe(path('sell-waiting'));
  });

  it.each<[string, FakeReply]>([
    ['a 500 answer', { status: 500, json: { error: 'boom', code: 'INTERNAL' } }],
    ['no answer', 'network-error'],
  ])(
    "a failed post (%s) alerts 'An error occurred while creating the order. Please try again.' and stays",
    async (_what, reply) => {
      const { api, app } = await openSendCrypto();
      api.on('POST', TX_HASH, reply);
      typeHash(HEX64);
      await submitHash();
      expect(api.callsTo('POST', TX_HASH)).toHaveLength(1);
      expect(setup.dialogs.alert).toHaveBeenCalledWith(CREATE_FAILED_EN);
      expect(app.currentPath()).toBe(path('send-crypto'));
      expect(submitButton().disabled).toBe(false);
    },
  );
});

describe('a hash refused by the server says why', () => {
  it.each(['en', 'ru'] as const)(
    "a different hash than the one already sent (%s): the screen's headline, then the reason",
    async (language) => {
      const { api } = await openSendCrypto({}, language);
      api.on('POST', TX_HASH, {
        status: 409,
        json: { error: 'x', code: 'TX_HASH_ALREADY_SUBMITTED', status: 'TX_PENDING' },
      });
      typeHash(HEX64);
      await submitHash();
      expect(setup.dialogs.alert).toHaveBeenCalledWith(
        language === 'en'
          ? `${CREATE_FAILED_EN}\nAnother transaction hash was already sent for this order. Contact support if it is wrong.`
          : 'Произошла ошибка при создании заказа. Пожалуйста, попробуйте снова.\n' +
              'Для этого заказа уже отправлен другой хеш транзакции. Если он неверный, напишите в поддержку.',
      );
    },
  );
});

describe('a hash the chain shows is not the deposit says exactly what is wrong', () => {
  it.each([
    [
      'en',
      { code: 'TX_UNDERPAID', coin: 'USDT', shortfall: '1234.000000000000000001' },
      'This transaction sends 1,234.000000000000000001 USDT less than the order’s amount. A second transfer to top it up does not count: contact support.',
    ],
    [
      'ru',
      { code: 'TX_UNDERPAID', coin: 'USDT', shortfall: '0.5' },
      'Эта транзакция переводит на 0,5 USDT меньше суммы заказа. Доплата вторым переводом не засчитывается: напишите в поддержку.',
    ],
    [
      'en',
      { code: 'TX_AMOUNT_MISMATCH', coin: 'USDT', sent: '100043.7', expected: '100.0437' },
      'This transaction sends 100,043.7 USDT, but this order needs exactly 100.0437 USDT. Give the hash of a transfer of exactly that amount, or contact support.',
    ],
    [
      'ru',
      { code: 'TX_AMOUNT_MISMATCH', coin: 'USDT', sent: '100.04', expected: '100.0437' },
      'Эта транзакция переводит 100,04 USDT, а по этому заказу нужно ровно 100,0437 USDT. Укажите хеш перевода ровно на эту сумму или напишите в поддержку.',
    ],
    [
      'en',
      { code: 'TX_WRONG_TOKEN', coin: 'USDT' },
      'This transaction moves a different token, not the official USDT contract. Such coins are not accepted.',
    ],
    [
      'ru',
      { code: 'TX_ALREADY_USED' },
      'Этот перевод уже указан как оплата другого заказа. Укажите хеш перевода по этому заказу.',
    ],
    [
      'en',
      { code: 'TX_BEFORE_ORDER' },
      'This transaction was made before the order was created, so it cannot pay for it. Give the hash of the transfer for this order.',
    ],
  ] as const)(
    '%s, %o: the reason alone, in the language, and the screen stays',
    async (language, body, text) => {
      const { api, app } = await openSendCrypto({}, language);
      api.on('POST', TX_HASH, { status: 400, json: { error: 'x', ...body } });
      typeHash(HEX64);
      await submitHash();
      expect(setup.dialogs.alert).toHaveBeenCalledWith(text);
      expect(app.currentPath()).toBe(path('send-crypto'));
      expect(submitButton().disabled).toBe(false);
    },
  );
});

describe('cancel on send-crypto', () => {
  it('asks for confirmation; declined, nothing is posted and the screen stays', async () => {
    setup.dialogs.confirm.mockReturnValue(false);
    const { api, app } = await openSendCrypto();
    fireEvent.click(screen.getByTestId('cancel-order'));
    await settle();
    expect(setup.dialogs.confirm).toHaveBeenCalledWith(
      'Cancel order #ord-7? This cannot be undone.',
    );
    expect(api.callsTo('POST', CANCEL)).toHaveLength(0);
    expect(app.currentPath()).toBe(path('send-crypto'));
  });

  it("confirmed, posts cancel and opens the order's details", async () => {
    setup.dialogs.confirm.mockReturnValue(true);
    const { api, app } = await openSendCrypto();
    fireEvent.click(screen.getByTestId('cancel-order'));
    await settle();
    expect(setup.dialogs.confirm).toHaveBeenCalledTimes(1);
    expect(api.callsTo('POST', CANCEL)).toHaveLength(1);
    expect(app.currentPath()).toBe(path('details'));
  });

  it("refused, alerts the generic error with the reason from the server's code, never its text, and stays", async () => {
    setup.dialogs.confirm.mockReturnValue(true);
    const { api, app } = await openSendCrypto();
    api.on('POST', CANCEL, {
      status: 409,
      json: { error: 'Server says no', code: 'INVALID_STATUS', status: 'TX_PENDING' },
    });
    fireEvent.click(screen.getByTestId('cancel-order'));
    await settle();
    expect(setup.dialogs.alert).toHaveBeenCalledWith(
      'Something went wrong. Please try again.\n' +
        'This action is not available for the order in its current status',
    );
    expect(app.currentPath()).toBe(path('send-crypto'));
    expect(screen.getByTestId<HTMLButtonElement>('cancel-order').disabled).toBe(false);
  });
});

describe('sell-waiting', () => {
  it('TX_PENDING keeps waiting and shows the submitted hash', async () => {
    const served = serveOrder({ status: 'TX_PENDING', txHash: HEX64 });
    const app = renderApp(path('sell-waiting'), { language: 'en' });
    await advance(9000);
    expect(served.polls()).toBe(4);
    expect(app.currentPath()).toBe(path('sell-waiting'));
    expect(screen.getByTestId('tx-hash').textContent).toContain(HEX64);
    // A manual network (no chain check): nothing about the chain.
    expect(screen.queryByTestId('chain-check')).toBeNull();
  });

  // No-break spaces (\u00a0) hold the count together: a number never ends a line without its word.
  it.each([
    ['en', 3, 15, 'Seen on the chain: 3\u00a0of\u00a015\u00a0confirmations'],
    ['en', 1, 1, 'Seen on the chain: 1\u00a0of\u00a01\u00a0confirmation'],
    ['ru', 3, 15, 'Замечена в сети: 3\u00a0из\u00a015\u00a0подтверждений'],
    ['ru', 2, 21, 'Замечена в сети: 2\u00a0из\u00a021\u00a0подтверждения'],
    ['ru', 0, 64, 'Замечена в сети: 0\u00a0из\u00a064\u00a0подтверждений'],
  ] as const)(
    'TX_PENDING seen on the chain (%s, %i of %i): "%s", counting up as the polls bring more',
    async (language, confirmations, required, text) => {
      const served = serveOrder({
        status: 'TX_PENDING',
        txHash: HEX64,
        chainCheck: { state: 'seen', confirmations, required },
      });
      renderApp(path('sell-waiting'), { language });
      await settle();
      expect(screen.getByTestId('chain-check').textContent).toBe(text);
      served.update({ chainCheck: { state: 'seen', confirmations: required, required } });
      await advance(3000);
      expect(screen.getByTestId('chain-check').textContent).toMatch(
        new RegExp(`: ${required}\\u00a0(of|из)\\u00a0${required}\\u00a0`),
      );
    },
  );

  it.each([
    [
      'en',
      'The block with the transaction was replaced on the chain; we are looking for it again. You need to do nothing.',
    ],
    ['ru', 'Блок с транзакцией заменён в сети, ищем её снова. Ничего делать не нужно.'],
  ] as const)(
    'a reorganised block (%s): the screen says the transaction is looked for again, nothing to do',
    async (language, text) => {
      serveOrder({
        status: 'TX_PENDING',
        txHash: HEX64,
        chainCheck: { state: 'reorged', confirmations: 0, required: 15 },
      });
      renderApp(path('sell-waiting'), { language });
      await settle();
      const line = screen.getByTestId('chain-check');
      expect(line.dataset['state']).toBe('reorged');
      expect(line.textContent).toBe(text);
    },
  );

  it.each([
    ['en', 15, 'Confirmed on the chain: 15\u00a0confirmations', 'Sending funds'],
    ['en', 1, 'Confirmed on the chain: 1\u00a0confirmation', 'Sending funds'],
    ['ru', 15, 'Подтверждена в сети: 15\u00a0подтверждений', 'Отправляем средства'],
    ['ru', 21, 'Подтверждена в сети: 21\u00a0подтверждение', 'Отправляем средства'],
    ['ru', 3, 'Подтверждена в сети: 3\u00a0подтверждения', 'Отправляем средства'],
  ] as const)(
    'TX_CONFIRMED by the chain (%s, %i) keeps the line: "%s" under "%s"',
    async (language, confirmations, text, header) => {
      serveOrder({
        status: 'TX_CONFIRMED',
        txHash: HEX64,
        chainCheck: { state: 'confirmed', confirmations, required: confirmations },
      });
      renderApp(path('sell-waiting'), { language });
      await settle();
      expect(document.querySelector('dt')?.textContent).toBe(header);
      const line = screen.getByTestId('chain-check');
      expect(line.dataset['state']).toBe('confirmed');
      expect(line.textContent).toBe(text);
    },
  );

  it('the line goes from seen to confirmed as the order moves to TX_CONFIRMED (ru)', async () => {
    const served = serveOrder({
      status: 'TX_PENDING',
      txHash: HEX64,
      chainCheck: { state: 'seen', confirmations: 14, required: 15 },
    });
    renderApp(path('sell-waiting'), { language: 'ru' });
    await settle();
    expect(screen.getByTestId('chain-check').textContent).toBe(
      'Замечена в сети: 14\u00a0из\u00a015\u00a0подтверждений',
    );
    served.update({
      status: 'TX_CONFIRMED',
      chainCheck: { state: 'confirmed', confirmations: 15, required: 15 },
    });
    await advance(3000);
    expect(screen.getByTestId('chain-check').textContent).toBe(
      'Подтверждена в сети: 15\u00a0подтверждений',
    );
  });

  it.each([
    ['confirmed by hand (the check closed)', null],
    [
      'confirmed by hand before the checker closed its check',
      { state: 'seen', confirmations: 7, required: 15 },
    ],
  ] as const)(
    'TX_CONFIRMED %s shows no chain line: a stale count would read as still waiting',
    async (_, chainCheck) => {
      serveOrder({ status: 'TX_CONFIRMED', txHash: HEX64, chainCheck });
      renderApp(path('sell-waiting'), { language: 'en' });
      await settle();
      expect(document.querySelector('dt')?.textContent).toBe('Sending funds');
      expect(screen.queryByTestId('chain-check')).toBeNull();
    },
  );
});
