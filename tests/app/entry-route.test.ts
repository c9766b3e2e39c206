import { afterEach, describe, expect, it, vi } from 'vitest';
import { entryRoute } from '../../src/app/entry-route';
import { rememberDeepLink } from '../../src/app/storage';

function answerActiveOrders(orders: unknown[] | 'fail') {
  const fetchMock = vi.fn(() =>
    Promise.resolve(
      orders === 'fail'
        ? new Response('{"error":"x","code":"INTERNAL"}', { status: 500 })
        : new Response(JSON.stringify({ orders }), { status: 200 }),
    ),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('where the app opens', () => {
  it('shows the landing when no language is stored', async () => {
    const fetchMock = answerActiveOrders([{ id: 'a' }]);
    expect(await entryRoute('/')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('keeps any route other than / as it is', async () => {
    localStorage.setItem('selectedLanguage', 'ru');
    answerActiveOrders([{ id: 'a' }]);
    expect(await entryRoute('/currencies')).toBeNull();
  });

  it('opens the deep-linked order first, without asking for active orders', async () => {
    localStorage.setItem('selectedLanguage', 'ru');
    sessionStorage.setItem('deepLinkOrderId', 'abc-1');
    const fetchMock = answerActiveOrders([]);
    expect(await entryRoute('/')).toBe('/my-orders?orderId=abc-1');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("opens an operator's console_<id> link from the bot's alert on that order in the console", async () => {
    localStorage.setItem('selectedLanguage', 'ru');
    rememberDeepLink('console_3f9c2a7b-61d4-4e0a-9b7c-2d5e8f1a0c34');
    const fetchMock = answerActiveOrders([]);
    expect(await entryRoute('/')).toBe('/console/orders/3f9c2a7b-61d4-4e0a-9b7c-2d5e8f1a0c34');
    expect(fetchMock).not.toHaveBeenCalled();
    // Once: the next start goes where it would have.
    expect(await entryRoute('/')).toBe('/currencies');
  });

  it("opens an order's chat from the bot's button under an operator's message (chat_<id>), once", async () => {
    localStorage.setItem('selectedLanguage', 'en');
    rememberDeepLink('chat_3f9c2a7b-61d4-4e0a-9b7c-2d5e8f1a0c34');
    const fetchMock = answerActiveOrders([]);
    expect(await entryRoute('/')).toBe('/order/3f9c2a7b-61d4-4e0a-9b7c-2d5e8f1a0c34/chat');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(await entryRoute('/')).toBe('/currencies');
  });

  it('a kept link that is not one the app opens (storage holds junk) is ignored', async () => {
    localStorage.setItem('selectedLanguage', 'en');
    sessionStorage.setItem('deepLinkStartParam', 'chat_../../console');
    answerActiveOrders([]);
    expect(await entryRoute('/')).toBe('/currencies');
  });

  it("opens the console's queue from the button of a flood's summary (start parameter console)", async () => {
    localStorage.setItem('selectedLanguage', 'ru');
    rememberDeepLink('console');
    const fetchMock = answerActiveOrders([]);
    expect(await entryRoute('/')).toBe('/console');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(await entryRoute('/')).toBe('/currencies');
  });

  it('opens /my-orders when there are active orders, /currencies otherwise', async () => {
    localStorage.setItem('selectedLanguage', 'en');
    answerActiveOrders([{ id: 'a' }]);
    expect(await entryRoute('/')).toBe('/my-orders');
    answerActiveOrders([]);
    expect(await entryRoute('/')).toBe('/currencies');
  });

  it('opens /currencies when the active orders cannot be fetched', async () => {
    localStorage.setItem('selectedLanguage', 'en');
    answerActiveOrders('fail');
    expect(await entryRoute('/')).toBe('/currencies');
  });
});
