/**
 * A customer's saved wallets and cards (src/server/saved-details/): kept on the server with the
 * customer, so they follow them to another device; saved with the same checks as a typed wallet
 * or card, listed most recent first, renamed and deleted by their owner only (another customer's
 * is NOT_FOUND), at most SAVED_WALLETS_MAX wallets and SAVED_CARDS_MAX cards, labels at most
 * SAVED_LABEL_MAX characters; no log line carries a card number.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, type OrderDetails } from '../../../src/shared/api';
import { maskCardNumber } from '../../../src/shared/saved-details';
import { SAVED_CARDS_MAX, SAVED_LABEL_MAX, SAVED_WALLETS_MAX } from '../../../src/shared/limits';
import type { SavedDetailsResponse } from '../../../src/shared/schemas/saved-details';
import {
  EVM_WALLET,
  TRON_WALLET,
  VALID_CARD,
  createOrder,
  expectError,
  forgedInitData,
  get,
  headersFor,
  newCustomer,
  post,
  statusOf,
  type TestUser,
} from '../../helpers/api';
import { authHeader } from '../../helpers/identity';
import { createTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
const lines: string[] = [];
beforeAll(async () => {
  t = await createTestApp({ logLevel: 'debug' }, { logStream: { write: (l) => lines.push(l) } });
});
afterAll(async () => {
  await t.close();
});

const list = async (user: TestUser) => {
  const res = await get(t, API_PATHS.savedDetails, user);
  expect(res.statusCode).toBe(200);
  return res.json<SavedDetailsResponse>();
};

const wallet = (network: string, address: string, label = 'My wallet') => ({
  network,
  address,
  label,
});
const card = (cardNumber = VALID_CARD, label = 'Salary card') => ({
  cardNumber,
  cardHolder: 'ivan petrov',
  bankName: 'Sberbank',
  label,
});

const send = (method: 'PATCH' | 'DELETE', url: string, user: TestUser, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: headersFor(user),
    ...(payload === undefined ? {} : { payload }),
  });

/** Card numbers that pass Luhn: 2200 7001 2345 678x with x the check digit of the first 15. */
function cardNumbers(count: number): string[] {
  const numbers: string[] = [];
  for (let n = 0; numbers.length < count; n++) {
    const body = `220070${String(n).padStart(9, '0')}`;
    for (let check = 0; check <= 9; check++) {
      const digits = `${body}${check}`;
      let sum = 0;
      for (let i = 0; i < digits.length; i++) {
        let d = Number(digits[digits.length - 1 - i]);
        if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
        sum += d;
      }
      if (sum % 10 === 0) numbers.push(digits);
    }
  }
  return numbers;
}

describe('saved details', () => {
  it('start empty; a wallet and a card saved are listed, newest first, the holder in capitals', async () => {
    const alice = newCustomer('Alice');
    expect(await list(alice)).toEqual({ wallets: [], cards: [] });
    expect(
      (await post(t, API_PATHS.savedWallets, wallet('TRC20', TRON_WALLET), alice)).statusCode,
    ).toBe(201);
    t.clock.advance(1000);
    const saved = await post(
      t,
      API_PATHS.savedWallets,
      wallet('BEP20', EVM_WALLET, 'Trust'),
      alice,
    );
    expect(saved.statusCode).toBe(201);
    expect(saved.json<SavedDetailsResponse>().wallets.map((w) => [w.network, w.label])).toEqual([
      ['BEP20', 'Trust'],
      ['TRC20', 'My wallet'],
    ]);
    const withCard = await post(
      t,
      API_PATHS.savedCards,
      card(`${VALID_CARD.slice(0, 8)} ${VALID_CARD.slice(8)}`),
      alice,
    );
    expect(withCard.statusCode).toBe(201);
    expect((await list(alice)).cards).toEqual([
      expect.objectContaining({
        cardNumber: VALID_CARD,
        cardHolder: 'IVAN PETROV',
        bankName: 'Sberbank',
        label: 'Salary card',
      }),
    ]);
  });

  it('follow the customer, not the device: another init data of the same customer sees them', async () => {
    const bob = newCustomer('Bob');
    await post(t, API_PATHS.savedWallets, wallet('TRC20', TRON_WALLET), bob);
    const otherDevice = { ...bob, username: 'bob_phone' };
    expect((await list(otherDevice)).wallets).toHaveLength(1);
  });

  it('saving the same wallet again (an EVM address in other case) renames it, never a second one', async () => {
    const carol = newCustomer('Carol');
    await post(t, API_PATHS.savedWallets, wallet('POLYGON', EVM_WALLET, 'First'), carol);
    t.clock.advance(1000);
    const again = await post(
      t,
      API_PATHS.savedWallets,
      wallet('POLYGON', EVM_WALLET.toLowerCase(), 'Renamed'),
      carol,
    );
    expect(again.json<SavedDetailsResponse>().wallets).toEqual([
      expect.objectContaining({
        network: 'POLYGON',
        address: EVM_WALLET.toLowerCase(),
        label: 'Renamed',
      }),
    ]);
    // The same address for another network is another saved wallet.
    await post(t, API_PATHS.savedWallets, wallet('ARBITRUM', EVM_WALLET), carol);
    expect((await list(carol)).wallets).toHaveLength(2);
  });

  it('a wallet is checked as a typed one: a Tron address for an EVM network, a bad checksum, an unknown network are refused', async () => {
    const dan = newCustomer('Dan');
    expectError(
      await post(t, API_PATHS.savedWallets, wallet('BEP20', TRON_WALLET), dan),
      'INVALID_WALLET_ADDRESS',
    );
    const badChecksum = EVM_WALLET.replace('a', 'A');
    expectError(
      await post(t, API_PATHS.savedWallets, wallet('ERC20', badChecksum), dan),
      'INVALID_WALLET_ADDRESS',
    );
    expectError(
      await post(t, API_PATHS.savedWallets, wallet('DOGE', EVM_WALLET), dan),
      'VALIDATION_FAILED',
    );
    expect((await list(dan)).wallets).toEqual([]);
  });

  it('a card is checked as the sell form checks it: Luhn, 16 digits, a Latin holder; labels are required and short', async () => {
    const erin = newCustomer('Erin');
    const refused = async (body: object) =>
      expectError(await post(t, API_PATHS.savedCards, body, erin), 'VALIDATION_FAILED').fields;
    expect(await refused(card('2200700123456782'))).toEqual(['cardNumber']);
    expect(await refused({ ...card(), cardHolder: 'Иван Петров' })).toEqual(['cardHolder']);
    expect(await refused(card(VALID_CARD, '   '))).toEqual(['label']);
    expect(await refused(card(VALID_CARD, 'x'.repeat(SAVED_LABEL_MAX + 1)))).toEqual(['label']);
    const longest = await post(
      t,
      API_PATHS.savedCards,
      card(VALID_CARD, 'x'.repeat(SAVED_LABEL_MAX)),
      erin,
    );
    expect(longest.statusCode).toBe(201);
    expectError(
      await post(t, API_PATHS.savedWallets, wallet('TRC20', TRON_WALLET, 'a\u0000b'), erin),
      'VALIDATION_FAILED',
    );
  });

  it(`keeps at most ${SAVED_CARDS_MAX} cards: the next is SAVED_DETAILS_FULL, saving a kept one again still works`, async () => {
    const frank = newCustomer('Frank');
    const numbers = cardNumbers(SAVED_CARDS_MAX + 1);
    for (const number of numbers.slice(0, SAVED_CARDS_MAX)) {
      expect((await post(t, API_PATHS.savedCards, card(number), frank)).statusCode).toBe(201);
    }
    expectError(
      await post(t, API_PATHS.savedCards, card(numbers.at(-1)), frank),
      'SAVED_DETAILS_FULL',
    );
    expect((await post(t, API_PATHS.savedCards, card(numbers[0], 'Again'), frank)).statusCode).toBe(
      201,
    );
    expect((await list(frank)).cards).toHaveLength(SAVED_CARDS_MAX);
  });

  it(`keeps at most ${SAVED_WALLETS_MAX} wallets, the refusal in the caller's language`, async () => {
    const gina = newCustomer('Gina');
    const networks = ['BEP20', 'ERC20', 'POLYGON', 'ARBITRUM', 'OPTIMISM', 'BASE'] as const;
    let saved = 0;
    for (let n = 1; saved < SAVED_WALLETS_MAX; n++) {
      const address = `0x${n.toString(16).padStart(40, '0')}`;
      for (const network of networks) {
        if (saved === SAVED_WALLETS_MAX) break;
        expect(
          (await post(t, API_PATHS.savedWallets, wallet(network, address), gina)).statusCode,
        ).toBe(201);
        saved += 1;
      }
    }
    const res = await t.app.inject({
      method: 'POST',
      url: API_PATHS.savedWallets,
      headers: { ...headersFor(gina), 'accept-language': 'ru' },
      payload: wallet('TRC20', TRON_WALLET),
    });
    expect(expectError(res, 'SAVED_DETAILS_FULL').error).toMatch(/удалите/);
  });

  it("renamed and deleted by their owner; another customer's, an unknown one or a bad id is NOT_FOUND and changes nothing", async () => {
    const hal = newCustomer('Hal');
    const ivy = newCustomer('Ivy');
    const { wallets } = (
      await post(t, API_PATHS.savedWallets, wallet('TRC20', TRON_WALLET, 'Old'), hal)
    ).json<SavedDetailsResponse>();
    const id = wallets[0]?.id ?? 0;
    const renamed = await send('PATCH', API_PATHS.savedItem('wallets', id), hal, { label: 'New' });
    expect(renamed.json<SavedDetailsResponse>().wallets[0]?.label).toBe('New');
    expectError(
      await send('PATCH', API_PATHS.savedItem('wallets', id), ivy, { label: 'Mine' }),
      'NOT_FOUND',
    );
    expectError(await send('DELETE', API_PATHS.savedItem('wallets', id), ivy), 'NOT_FOUND');
    expectError(await send('DELETE', API_PATHS.savedItem('cards', id), hal), 'NOT_FOUND');
    for (const url of [
      '/api/saved-details/wallets/abc',
      '/api/saved-details/phones/1',
      '/api/saved-details/wallets/0',
    ]) {
      expectError(await send('DELETE', url, hal), 'NOT_FOUND');
    }
    expect((await list(hal)).wallets.map((w) => w.label)).toEqual(['New']);
    const deleted = await send('DELETE', API_PATHS.savedItem('wallets', id), hal);
    expect(deleted.json<SavedDetailsResponse>()).toEqual({ wallets: [], cards: [] });
    expectError(await send('DELETE', API_PATHS.savedItem('wallets', id), hal), 'NOT_FOUND');
  });

  it('need a genuine identity: none is AUTH_MISSING, forged is AUTH_INVALID', async () => {
    const jay = newCustomer('Jay');
    expectError(await get(t, API_PATHS.savedDetails), 'AUTH_MISSING');
    const forged = await t.app.inject({
      method: 'POST',
      url: API_PATHS.savedCards,
      headers: authHeader(forgedInitData(jay)),
      payload: card(),
    });
    expectError(forged, 'AUTH_INVALID');
  });

  it("keep a sell's card from its order, on any device: its owner's only, a buy or another's is ORDER_NOT_FOUND", async () => {
    const seller = newCustomer('Sveta');
    const sell = await createOrder(t, seller, { type: 'SELL', total: 10_000 });
    const shown = await get(t, API_PATHS.orderStatus(sell), seller);
    expect(shown.json<OrderDetails>().payoutCard).toEqual({
      maskedNumber: maskCardNumber(VALID_CARD),
      bankName: 'Sberbank',
    });
    // The status call carries no identity: whoever holds the link never reads the number.
    expect(shown.body).not.toContain(VALID_CARD);
    const fromOrder = (orderId: string, user: TestUser) =>
      post(t, API_PATHS.savedCardFromOrder, { orderId, label: 'Payout card' }, user);
    const buy = await createOrder(t, seller, { total: 10_000 });
    expect((await statusOf(t, seller, buy)).payoutCard).toBeNull();
    expectError(await fromOrder(sell, newCustomer('Mallory')), 'ORDER_NOT_FOUND');
    expectError(await fromOrder(buy, seller), 'ORDER_NOT_FOUND');
    expectError(await fromOrder('not-an-order', seller), 'ORDER_NOT_FOUND');
    expect((await list(seller)).cards).toEqual([]);
    const saved = await fromOrder(sell, seller);
    expect(saved.statusCode, saved.body).toBe(201);
    expect(saved.json<SavedDetailsResponse>().cards).toMatchObject([
      {
        cardNumber: VALID_CARD,
        cardHolder: 'IVAN PETROV',
        bankName: 'Sberbank',
        label: 'Payout card',
      },
    ]);
  });

  it('no log line carries a saved card number, not even at debug', () => {
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.some((line) => line.includes(API_PATHS.savedCards))).toBe(true);
    expect(lines.some((line) => line.includes(API_PATHS.savedCardFromOrder))).toBe(true);
    expect(lines.filter((line) => line.includes(VALID_CARD))).toEqual([]);
  });
});
