/**
 * The customer's language: both dictionaries are loaded up front (they are small), the current
 * one is `selectedLanguage` from local storage (ru by default), and switching re-renders every
 * visible text at once.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, type ReactNode } from 'react';
import TypesafeI18n, { useI18nContext } from '../../../i18n/i18n-react';
import { loadAllLocales } from '../../../i18n/i18n-util.sync';
import { DEFAULT_LANGUAGE, type Language } from '../../shared/api';
import { getStoredLanguage, setStoredLanguage } from '../storage';

loadAllLocales();

interface LanguageState {
  readonly language: Language;
  /** Shows the app in `language` and stores it as the customer's choice. */
  readonly chooseLanguage: (language: Language) => void;
}

const LanguageContext = createContext<LanguageState | null>(null);

function LanguageBridge({ children }: { readonly children: ReactNode }) {
  const { locale, setLocale } = useI18nContext();
  const chooseLanguage = useCallback(
    (language: Language) => {
      setStoredLanguage(language);
      setLocale(language);
    },
    [setLocale],
  );
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  const value = useMemo(() => ({ language: locale, chooseLanguage }), [locale, chooseLanguage]);
  return <LanguageContext.Provider value={value}>{children}</LanguageContext.Provider>;
}

export function LanguageProvider({ children }: { readonly children: ReactNode }) {
  return (
    <TypesafeI18n locale={getStoredLanguage() ?? DEFAULT_LANGUAGE}>
      <LanguageBridge>{children}</LanguageBridge>
    </TypesafeI18n>
  );
}

export function useLanguage(): LanguageState {
  const value = useContext(LanguageContext);
  if (value === null) throw new Error('useLanguage outside LanguageProvider');
  return value;
}

export { useI18nContext };
