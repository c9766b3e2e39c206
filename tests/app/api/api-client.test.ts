import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest, setInitData } from '../../../src/app/api/client';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('the API client', () => {
  it('sends the init data as Authorization: tma and the stored language', async () => {
    const fetchMock = vi.fn<(url: string, init: RequestInit) => Promise<Response>>(() =>
      Promise.resolve(new Response('{"orders":[]}', { status: 200 })),
    );
    vi.stubGlobal('fetch', fetchMock);
    setInitData('user=%7B%7D&hash=abc');
    localStorage.setItem('selectedLanguage', 'en');
    await apiRequest('/api/orders/active');
    const headers = fetchMock.mock.calls[0]?.[1].headers as Record<string, string>;
    expect(headers['authorization']).toBe('tma user=%7B%7D&hash=abc');
    expect(headers['accept-language']).toBe('en');
  });

  it("turns an error answer into ApiError with the server's code", async () => {
    vi.stubGlobal('fetch', () =>
      Promise.resolve(new Response('{"error":"x","code":"ORDER_NOT_FOUND"}', { status: 404 })),
    );
    await expect(apiRequest('/api/x')).rejects.toMatchObject({
      status: 404,
      code: 'ORDER_NOT_FOUND',
    });
  });

  it('calls an answer that is not ours (a proxy page) INTERNAL, and no answer NETWORK', async () => {
    vi.stubGlobal('fetch', () =>
      Promise.resolve(new Response('<html>Bad gateway</html>', { status: 502 })),
    );
    await expect(apiRequest('/api/x')).rejects.toMatchObject({ status: 502, code: 'INTERNAL' });
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(apiRequest('/api/x')).rejects.toBeInstanceOf(ApiError);
    await expect(apiRequest('/api/x')).rejects.toMatchObject({ code: 'NETWORK' });
  });

  it('gives up with TIMEOUT when the answer takes longer than timeoutMs', async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      (_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) => {
          init.signal?.addEventListener('abort', () =>
            reject(new DOMException('aborted', 'AbortError')),
          );
        }),
    );
    const pending = apiRequest('/api/health', { timeoutMs: 3000 });
    const check = expect(pending).rejects.toMatchObject({ code: 'TIMEOUT' });
    await vi.advanceTimersByTimeAsync(3000);
    await check;
  });
});
