/**
 * The console's words are a typesafe-i18n namespace (`console`) that customers never download:
 * the console loads it for the language shown, and again for a language switched to while it is
 * open, and shows the app's loading screen until then, never empty texts. Real timers here: the
 * namespace is a real dynamic import, which fake timers cannot hurry.
 */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Locales, Translations } from '../../../../i18n/i18n-types';
import { loadedLocales } from '../../../../i18n/i18n-util';
import { useLanguage } from '../../../../src/app/i18n/language';
import { AppRoutes } from '../../../../src/app/routes';
import type { OperatorQueueResponse } from '../../../../src/shared/operator-api';
import { QUEUE_GROUPS } from '../../../../src/shared/operator-queue';
import { fakeApi, renderApp } from '../../../helpers/render-app';

const OPERATOR = { telegramId: 300_000_001, firstName: 'Olga', operator: true };
const QUEUE: OperatorQueueResponse = {
  serverTime: new Date().toISOString(),
  groups: QUEUE_GROUPS.map((group) => ({ group, count: 0, orders: [] })),
};

const saved = { ...loadedLocales };
/** The dictionary of `locale` as a customer's phone has it: without the console's words. */
function withoutConsoleWords(locale: Locales): void {
  const customers: Partial<Translations> = { ...loadedLocales[locale] };
  delete customers.console;
  // The generated type says every dictionary holds every namespace; before loading, none does.
  loadedLocales[locale] = customers as Translations;
}
afterEach(() => {
  Object.assign(loadedLocales, saved);
  vi.unstubAllGlobals();
});

const title = () => document.querySelector('.app-header__title')?.textContent;
const loading = () => document.querySelector('[data-screen="loading"]');

function SwitchToEnglish() {
  const { chooseLanguage } = useLanguage();
  return (
    <button type="button" data-testid="to-en" onClick={() => chooseLanguage('en')}>
      en
    </button>
  );
}

describe("the console's words (the console namespace)", () => {
  it('the console shows the loading screen until its words are loaded, then its texts in the language shown', async () => {
    fakeApi([
      { method: 'GET', path: '/api/me', reply: { json: OPERATOR } },
      { method: 'GET', path: '/api/operator/queue', reply: { json: QUEUE } },
    ]);
    withoutConsoleWords('ru');
    renderApp('/console', { language: 'ru' });
    expect(loading()).not.toBeNull();
    expect(document.querySelector('[data-screen="console-queue"]')).toBeNull();
    await screen.findByText('Очередь');
    expect(loading()).toBeNull();
    expect(title()).toBe('Очередь');
    expect(screen.getByTestId('console-rates-entry').textContent).toBe('Курсы');
    expect(Object.keys(loadedLocales.ru.console)).toContain('title');
  });

  it('switching the language while the console is open loads that language’s words before showing it', async () => {
    fakeApi([
      { method: 'GET', path: '/api/me', reply: { json: OPERATOR } },
      { method: 'GET', path: '/api/operator/queue', reply: { json: QUEUE } },
    ]);
    withoutConsoleWords('en');
    renderApp('/console', {
      language: 'ru',
      element: (
        <>
          <SwitchToEnglish />
          <AppRoutes />
        </>
      ),
    });
    await screen.findByText('Очередь');
    act(() => {
      fireEvent.click(screen.getByTestId('to-en'));
    });
    // The customer's English is there, the console's not yet: loading, not empty texts.
    expect(document.documentElement.lang).toBe('en');
    expect(loading()).not.toBeNull();
    await waitFor(() => {
      expect(title()).toBe('Queue');
    });
    expect(screen.getByTestId('console-search-entry').textContent).toBe('Search');
  });
});
