import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadAppConfig } from '../../../src/app/api/app-config';
import type { AppConfigResponse } from '../../../src/shared/api';
import { APP_CONFIG_ELEMENT_ID, appConfigElement } from '../../../src/shared/app-config';

const SERVED: AppConfigResponse = { demo: false, supportUrl: 'https://t.me/exchange_support' };
const INLINE: AppConfigResponse = {
  demo: true,
  supportUrl: 'https://t.me/x?text=</script><!--',
};

/** Answers GET /api/app-config with SERVED and records every call. */
function serveAppConfig() {
  const fetchMock = vi.fn<(url: string) => Promise<Response>>(() =>
    Promise.resolve(new Response(JSON.stringify(SERVED), { status: 200 })),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** index.html's head as the server writes it, with `element` in it. */
function pageWith(element: string): void {
  document.head.innerHTML = element;
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.head.innerHTML = '';
});

describe('the start-up configuration', () => {
  it('is read from the element the server put into index.html, without a call', async () => {
    const fetchMock = serveAppConfig();
    pageWith(appConfigElement(INLINE));
    await expect(loadAppConfig()).resolves.toEqual(INLINE);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('is asked from GET /api/app-config when the page carries none (the Vite dev server)', async () => {
    const fetchMock = serveAppConfig();
    await expect(loadAppConfig()).resolves.toEqual(SERVED);
    expect(fetchMock).toHaveBeenCalledOnce();
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/app-config');
  });

  it.each([
    ['not JSON', '{demo: true'],
    ['a field missing', JSON.stringify({ demo: true })],
    ['a field of the wrong type', JSON.stringify({ demo: 'yes', supportUrl: 'https://t.me/x' })],
  ])('is asked from the server when the element holds %s', async (_case, text) => {
    const fetchMock = serveAppConfig();
    pageWith(`<script type="application/json" id="${APP_CONFIG_ELEMENT_ID}">${text}</script>`);
    await expect(loadAppConfig()).resolves.toEqual(SERVED);
    expect(fetchMock).toHaveBeenCalledOnce();
  });

  it('fails start-up when the server answers no configuration either', async () => {
    vi.stubGlobal('fetch', () => Promise.resolve(new Response('{"demo":1}', { status: 200 })));
    await expect(loadAppConfig()).rejects.toThrow();
  });
});
