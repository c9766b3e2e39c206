import { describe, expect, it } from 'vitest';
import {
  clearStoredLanguage,
  getSelectedCurrency,
  getStoredLanguage,
  rememberDeepLink,
  setSelectedCurrency,
  setStoredLanguage,
  takeDeepLinkOrderId,
} from '../../src/app/storage';

describe('client state', () => {
  it('keeps selectedLanguage in local storage, ru or en only', () => {
    expect(getStoredLanguage()).toBeNull();
    setStoredLanguage('en');
    expect(localStorage.getItem('selectedLanguage')).toBe('en');
    expect(getStoredLanguage()).toBe('en');
    localStorage.setItem('selectedLanguage', 'de');
    expect(getStoredLanguage()).toBeNull();
    setStoredLanguage('ru');
    clearStoredLanguage();
    expect(localStorage.getItem('selectedLanguage')).toBeNull();
  });

  it('keeps selectedCurrency in session storage as JSON with code and symbol', () => {
    setSelectedCurrency('KZT');
    expect(JSON.parse(sessionStorage.getItem('selectedCurrency') ?? '')).toEqual({
      code: 'KZT',
      symbol: '₸',
    });
    expect(getSelectedCurrency()).toEqual({ code: 'KZT', symbol: '₸' });
  });

  it('treats junk in selectedCurrency as no currency chosen', () => {
    for (const junk of ['{', '"RUB"', '{"code":"XYZ"}', 'null']) {
      sessionStorage.setItem('selectedCurrency', junk);
      expect(getSelectedCurrency()).toBeNull();
    }
  });

  it('keeps an order_<id> deep link in session storage and hands it out once', () => {
    rememberDeepLink('order_6a1f0c9e-3b2d-4e5f-8a7b-9c0d1e2f3a4b');
    expect(sessionStorage.getItem('deepLinkOrderId')).toBe('6a1f0c9e-3b2d-4e5f-8a7b-9c0d1e2f3a4b');
    expect(takeDeepLinkOrderId()).toBe('6a1f0c9e-3b2d-4e5f-8a7b-9c0d1e2f3a4b');
    expect(takeDeepLinkOrderId()).toBeNull();
    rememberDeepLink('ref_partner42');
    expect(takeDeepLinkOrderId()).toBeNull();
  });
});
