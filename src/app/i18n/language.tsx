/**
 * The customer's language: the current one is `selectedLanguage` from local storage (ru by
 * default), its dictionary loaded before the app first renders (`loadLanguage`); the other one
 * only when the customer switches, which re-renders every visible text at once. Each dictionary
 * is a chunk of its own, out of the entry; index.html fetches both beside the entry
 * (vite.config.ts, `preloadDictionaries`), so the one start-up loads is there when asked for.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, type ReactNode } from 'react';
import TypesafeI18n, { useI18nContext } from '../../../i18n/i18n-react';
import { loadedLocales } from '../../../i18n/i18n-util';
import { loadLocaleAsync } from '../../../i18n/i18n-util.async';
import { DEFAULT_LANGUAGE, type Language } from '../../shared/api';
import { getStoredLanguage, setStoredLanguage } from '../storage';

/** The language the app starts in: the stored choice, else the default. */
export function startLanguage(): Language {
  return getStoredLanguage() ?? DEFAULT_LANGUAGE;
}

/** Loads a language's dictionary, unless it is already there. */
export async function loadLanguage(language: Language): Promise<void> {
  if (language in loadedLocales) return;
  await loadLocaleAsync(language);
}

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
      const show = () => setLocale(language);
      // Synchronously when the dictionary is already there: no frame shows the old language.
      if (language in loadedLocales) show();
      else void loadLanguage(language).then(show);
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
    <TypesafeI18n locale={startLanguage()}>
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
