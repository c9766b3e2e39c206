import { afterEach, describe, expect, it, vi } from 'vitest';
import { entryRoute } from '../../src/app/entry-route';

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

describe('where the app opens (spec section 2, landing, second reading)', () => {
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
