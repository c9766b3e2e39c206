/**
 * Saved wallets and cards in the app: the buy forms offer the saved wallets of the selected
 * network only, one tap filling the wallet; the sell form offers the saved cards; a completed buy
 * offers to save its wallet (or says it is saved); settings lists, renames (by the shared label
 * rule) and deletes (after a confirmation) them, and says plainly when there are none.
 */
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SavedDetailsResponse } from '../../../../src/shared/schemas/saved-details';
import { maskCardNumber } from '../../../../src/shared/saved-details';
import { serveOrder } from '../../../helpers/order-fixtures';
import {
  fakeApi,
  input,
  networkSelect,
  renderApp,
  settle,
  setUpScreenTests,
  type FakeApi,
} from '../../../helpers/render-app';

const TRON_WALLET = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';
const EVM_WALLET = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const CREATED = '2025-03-01T12:00:00.000Z';

const WALLETS: SavedDetailsResponse['wallets'] = [
  { id: 1, network: 'TRC20', address: TRON_WALLET, label: 'Tron main', createdAt: CREATED },
  { id: 2, network: 'BASE', address: EVM_WALLET, label: 'Base cold', createdAt: CREATED },
  // An address saved for BEP20: the same EVM address, never offered for BASE or POLYGON.
  { id: 3, network: 'BEP20', address: EVM_WALLET, label: 'BSC', createdAt: CREATED },
];
const CARDS: SavedDetailsResponse['cards'] = [
  {
    id: 7,
    cardNumber: '2200700123456781',
    cardHolder: 'IVAN PETROV',
    bankName: 'T-Bank',
    label: 'Salary card',
    createdAt: CREATED,
  },
];
const SAVED: SavedDetailsResponse = { wallets: WALLETS, cards: CARDS };

const setup = setUpScreenTests();

function formApi(saved: SavedDetailsResponse = SAVED): FakeApi {
  return fakeApi([
    { method: 'GET', path: '/api/rates/calculate', reply: { json: { rate: 97.13 } } },
    { method: 'GET', path: '/api/saved-details', reply: { json: saved } },
  ]);
}

async function openForm(path: string, language: 'ru' | 'en' = 'en') {
  sessionStorage.setItem('selectedCurrency', JSON.stringify({ code: 'RUB', symbol: 'RUB' }));
  renderApp(path, { language });
  await settle();
}

const offered = () =>
  [...document.querySelectorAll<HTMLElement>('[data-saved-choice]')].map((cell) =>
    cell.getAttribute('aria-label'),
  );

describe('the buy forms offer the saved wallets of the selected network, one tap each', () => {
  it.each(['/p2p/buy', '/bank-account', '/office-exchange'])(
    '%s offers BASE wallets on BASE only, and TRC20 ones on TRC20',
    async (path) => {
      formApi();
      await openForm(path);
      expect(networkSelect().value).toBe('BASE');
      expect(offered()).toEqual(['Use saved wallet “Base cold”, 0x5aAe…eAed']);
      fireEvent.change(networkSelect(), { target: { value: 'TRC20' } });
      await settle();
      expect(offered()).toEqual(['Use saved wallet “Tron main”, TNPeea…YqeL']);
    },
  );

  it('a tap fills the wallet field with the whole address', async () => {
    formApi();
    await openForm('/p2p/buy');
    fireEvent.change(networkSelect(), { target: { value: 'TRC20' } });
    await settle();
    fireEvent.click(screen.getByRole('button', { name: /Tron main/ }));
    await settle();
    expect(input('walletAddress').value).toBe(TRON_WALLET);
  });

  it('nothing is offered on a network with no saved wallet, nor when the list fails', async () => {
    formApi();
    await openForm('/p2p/buy');
    fireEvent.change(networkSelect(), { target: { value: 'POLYGON' } });
    await settle();
    expect(screen.queryByTestId('saved-wallets')).toBeNull();

    const api = formApi();
    api.on('GET', '/api/saved-details', { status: 500, json: { code: 'INTERNAL' } });
    await openForm('/bank-account');
    expect(screen.queryByTestId('saved-wallets')).toBeNull();
  });

  it('the choices are named in Russian too', async () => {
    formApi();
    await openForm('/p2p/buy', 'ru');
    expect(screen.getByText('Сохранённые кошельки')).toBeTruthy();
    expect(offered()).toEqual(['Подставить кошелёк «Base cold», 0x5aAe…eAed']);
  });
});

describe('the sell form offers the saved cards', () => {
  it('a tap fills the number, the holder and the bank; the card shows masked', async () => {
    formApi();
    await openForm('/p2p/sell');
    // Named with every word it shows, the bank too, so that voice control finds it by its text.
    const choice = screen.getByRole('button', {
      name: 'Use saved card “Salary card”, •••• 6781, T-Bank',
    });
    expect(choice.textContent).not.toContain('2200700123456781');
    fireEvent.click(choice);
    await settle();
    expect(input('cardNumber').value).toBe('2200 7001 2345 6781');
    expect(input('cardHolder').value).toBe('IVAN PETROV');
    expect(input('bankName').value).toBe('T-Bank');
  });
});

describe('after a completed buy: save this wallet', () => {
  const completed = { status: 'COMPLETED' as const, network: 'TRC20' as const };

  it('saves the wallet for its network with the label as edited, then says it is saved', async () => {
    const served = serveOrder({ ...completed, walletAddress: TRON_WALLET });
    served.api.on('GET', '/api/saved-details', { json: { wallets: [], cards: [] } });
    served.api.on('POST', '/api/saved-details/wallets', (call) => ({
      status: 201,
      json: {
        wallets: [{ id: 9, ...(call.body as object), createdAt: CREATED }],
        cards: [],
      },
    }));
    renderApp('/order/ord-1/complete', { language: 'en' });
    await settle();
    const offer = screen.getByTestId('save-wallet');
    expect(within(offer).getByText('Save this wallet')).toBeTruthy();
    const label = within(offer).getByRole('textbox', { name: 'Name' });
    expect((label as HTMLInputElement).value).toBe('TRC20 wallet');
    fireEvent.change(label, { target: { value: '  Trust wallet ' } });
    fireEvent.click(within(offer).getByRole('button', { name: 'Save wallet' }));
    await settle();
    expect(served.api.callsTo('POST', '/api/saved-details/wallets')[0]?.body).toEqual({
      network: 'TRC20',
      address: TRON_WALLET,
      label: 'Trust wallet',
    });
    expect(screen.getByTestId('save-wallet-done').textContent).toContain(
      'This wallet is saved as “Trust wallet”.',
    );
  });

  it('a wallet saved before is said to be saved, not offered again (EVM in any case)', async () => {
    const served = serveOrder({
      status: 'COMPLETED',
      network: 'BASE',
      walletAddress: EVM_WALLET.toLowerCase(),
    });
    served.api.on('GET', '/api/saved-details', { json: SAVED });
    renderApp('/order/ord-1/details', { language: 'ru' });
    await settle();
    expect(screen.queryByTestId('save-wallet')).toBeNull();
    expect(screen.getByTestId('save-wallet-done').textContent).toContain(
      'Этот кошелёк сохранён как «Base cold».',
    );
  });

  it('a full list is refused in the customer language, and an empty label before any call', async () => {
    const served = serveOrder({ ...completed, walletAddress: TRON_WALLET });
    served.api.on('GET', '/api/saved-details', { json: { wallets: [], cards: [] } });
    served.api.on('POST', '/api/saved-details/wallets', {
      status: 409,
      json: { error: 'full', code: 'SAVED_DETAILS_FULL' },
    });
    renderApp('/order/ord-1/complete', { language: 'ru' });
    await settle();
    const offer = screen.getByTestId('save-wallet');
    const label = within(offer).getByRole('textbox', { name: 'Название' });
    fireEvent.change(label, { target: { value: '   ' } });
    fireEvent.click(within(offer).getByRole('button', { name: 'Сохранить кошелёк' }));
    await settle();
    expect(served.api.callsTo('POST', '/api/saved-details/wallets')).toHaveLength(0);
    expect(screen.getByTestId('save-wallet-error').textContent).toBe(
      'Пожалуйста, заполните все поля',
    );
    fireEvent.change(label, { target: { value: 'Мой' } });
    fireEvent.click(within(offer).getByRole('button', { name: 'Сохранить кошелёк' }));
    await settle();
    expect(screen.getByTestId('save-wallet-error').textContent).toBe(
      'Не удалось сохранить.\nБольше сохранить нельзя: сначала удалите одно из сохранённых.',
    );
  });

  it('a buy offers no card: only a sell pays out to one', async () => {
    const served = serveOrder({ status: 'COMPLETED', type: 'BUY', payoutCard: null });
    served.api.on('GET', '/api/saved-details', { json: SAVED });
    renderApp('/order/ord-1/complete', { language: 'en' });
    await settle();
    expect(screen.queryByTestId('save-card')).toBeNull();
  });

  it('a sell offers its card, masked, on any device, and has the server save it from the order', async () => {
    const served = serveOrder({
      status: 'TX_PENDING',
      type: 'SELL',
      walletAddress: null,
      payoutCard: { maskedNumber: '•••• 0000', bankName: 'T-Bank' },
    });
    served.api.on('GET', '/api/saved-details', { json: SAVED });
    served.api.on('POST', '/api/saved-details/cards/from-order', { status: 201, json: SAVED });
    renderApp('/order/ord-1/sell-waiting', { language: 'en' });
    await settle();
    const offer = screen.getByTestId('save-card');
    expect(offer.textContent).toContain('•••• 0000 · T-Bank');
    expect(within(offer).getByRole('textbox', { name: 'Name' })).toHaveProperty(
      'value',
      'T-Bank card',
    );
    fireEvent.click(within(offer).getByRole('button', { name: 'Save card' }));
    await settle();
    expect(served.api.callsTo('POST', '/api/saved-details/cards/from-order')[0]?.body).toEqual({
      orderId: 'ord-1',
      label: 'T-Bank card',
    });
  });

  it('a sell whose card is saved says so instead of offering it again', async () => {
    const card = SAVED.cards[0];
    if (card === undefined) throw new Error('the fixture keeps a card');
    const served = serveOrder({
      status: 'COMPLETED',
      type: 'SELL',
      walletAddress: null,
      payoutCard: { maskedNumber: maskCardNumber(card.cardNumber), bankName: card.bankName },
    });
    served.api.on('GET', '/api/saved-details', { json: SAVED });
    renderApp('/order/ord-1/complete', { language: 'ru' });
    await settle();
    expect(screen.getByTestId('save-card-done').textContent).toContain(card.label);
  });
});

describe('settings: the language and the saved details', () => {
  function settingsApi(saved: SavedDetailsResponse = SAVED): FakeApi {
    const api = fakeApi([{ method: 'GET', path: '/api/saved-details', reply: { json: saved } }]);
    let current = saved;
    api.on('PATCH', /^\/api\/saved-details\/wallets\/\d+$/, (call) => {
      const id = Number(call.path.split('/').at(-1));
      const { label } = call.body as { label: string };
      current = {
        ...current,
        wallets: current.wallets.map((w) => (w.id === id ? { ...w, label } : w)),
      };
      return { json: current };
    });
    api.on('DELETE', /^\/api\/saved-details\/wallets\/\d+$/, (call) => {
      const id = Number(call.path.split('/').at(-1));
      current = { ...current, wallets: current.wallets.filter((w) => w.id !== id) };
      return { json: current };
    });
    return api;
  }

  it('lists each wallet (network, short address) and card (masked), never a whole card number', async () => {
    settingsApi();
    renderApp('/settings', { language: 'en' });
    await settle();
    const wallets = screen.getByTestId('settings-wallets');
    expect(within(wallets).getByTestId('wallet-1').textContent).toContain('TRC20 · TNPeea…YqeL');
    const cards = screen.getByTestId('settings-cards');
    expect(cards.textContent).toContain('Salary card');
    expect(cards.textContent).toContain('•••• 6781 · T-Bank');
    expect(document.body.textContent).not.toContain('2200700123456781');
  });

  it('says plainly that nothing is saved', async () => {
    settingsApi({ wallets: [], cards: [] });
    renderApp('/settings', { language: 'ru' });
    await settle();
    expect(screen.getByTestId('settings-wallets-empty').textContent).toBe(
      'Сохранённых кошельков нет. Кошелёк можно сохранить после покупки.',
    );
    expect(screen.getByTestId('settings-cards-empty').textContent).toBe(
      'Сохранённых карт нет. Карту можно сохранить после создания продажи.',
    );
  });

  it('renames in place; a label over 32 characters is refused before any call', async () => {
    const api = settingsApi();
    renderApp('/settings', { language: 'en' });
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Rename “Tron main”' }));
    const field = screen.getByRole('textbox', { name: 'New name for “Tron main”' });
    fireEvent.change(field, { target: { value: 'x'.repeat(33) } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await settle();
    expect(api.callsTo('PATCH', /saved-details/)).toHaveLength(0);
    expect(screen.getByTestId('wallet-1-error').textContent).toBe(
      'This field is too long: please shorten it',
    );
    fireEvent.change(field, { target: { value: 'Tron savings' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await settle();
    expect(api.callsTo('PATCH', '/api/saved-details/wallets/1')[0]?.body).toEqual({
      label: 'Tron savings',
    });
    expect(screen.getByTestId('wallet-1').textContent).toContain('Tron savings');
    expect(screen.queryByRole('textbox', { name: /New name/ })).toBeNull();
  });

  it('deletes only once the customer confirms', async () => {
    const api = settingsApi();
    renderApp('/settings', { language: 'en' });
    await settle();
    setup.dialogs.confirm.mockReturnValueOnce(false);
    fireEvent.click(screen.getByRole('button', { name: 'Delete “Base cold”' }));
    await settle();
    expect(setup.dialogs.confirm).toHaveBeenCalledWith(
      'Delete “Base cold”? This cannot be undone.',
    );
    expect(api.callsTo('DELETE', /saved-details/)).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Delete “Base cold”' }));
    await settle();
    expect(api.callsTo('DELETE', '/api/saved-details/wallets/2')).toHaveLength(1);
    expect(screen.queryByTestId('wallet-2')).toBeNull();
    expect(screen.getByTestId('wallet-1')).toBeTruthy();
  });

  it('the language is a checked radio choice, and choosing one switches the screen', async () => {
    settingsApi();
    renderApp('/settings', { language: 'en' });
    await settle();
    const group = screen.getByRole('radiogroup', { name: 'Language' });
    expect(within(group).getByRole('radio', { name: 'English' })).toHaveProperty('checked', true);
    fireEvent.click(within(group).getByRole('radio', { name: 'Русский' }));
    await settle();
    expect(screen.getByRole('radiogroup', { name: 'Язык' })).toBeTruthy();
    expect(localStorage.getItem('selectedLanguage')).toContain('ru');
  });
});
