/**
 * The console's words: the typesafe-i18n namespace `console` (i18n/<language>/console), which
 * customers never download. It loads with the console's chunk, for the language shown and again
 * for each language switched to while the console is open; until then the console shows the
 * app's loading screen, never keys or empty texts.
 */
import { useEffect, useState } from 'react';
import type { Locales, Translations } from '../../../../i18n/i18n-types';
import { loadedLocales } from '../../../../i18n/i18n-util';
import { useI18nContext } from '../../i18n/language';

/**
 * Each language's console words, a chunk of its own. typesafe-i18n generates the same loaders
 * (`loadNamespaceAsync` in i18n-util.async), but that module is in the first chunk, which start-up
 * needs for the customer's dictionary: calling its namespace loader from here would keep the
 * loaders of every namespace in what every customer downloads (+0.1 kB gzip, measured).
 */
const CONSOLE_WORDS: Record<Locales, () => Promise<{ readonly default: unknown }>> = {
  ru: () => import('../../../../i18n/ru/console'),
  en: () => import('../../../../i18n/en/console'),
};

/** Adds the namespace to `locale`'s dictionary, unless it is already there. */
async function loadConsoleWords(locale: Locales): Promise<void> {
  // The generated type says every dictionary holds its namespaces; the app's do not until loaded.
  const dictionary: Partial<Translations> = loadedLocales[locale];
  if (dictionary.console !== undefined) return;
  const { default: words } = await CONSOLE_WORDS[locale]();
  // As loadNamespaceAsync does: a new dictionary object (every `LL` keeps the one it was made
  // from), and the cast its generated code makes (ru's file is typed as the loose BaseTranslation).
  loadedLocales[locale] = { ...loadedLocales[locale], console: words as Translations['console'] };
}

/**
 * Whether the console's words of the language shown are there for `LL.console.*`: false until
 * they are loaded (again after a switch to a language whose words are not loaded yet).
 */
export function useConsoleWords(): boolean {
  const { locale, setLocale } = useI18nContext();
  /** The language whose `LL` was made after its console words were in its dictionary. */
  const [wordsFor, setWordsFor] = useState<Locales | null>(null);
  const [failure, setFailure] = useState<{ readonly error: unknown } | null>(null);
  useEffect(() => {
    if (wordsFor === locale) return;
    let current = true;
    loadConsoleWords(locale).then(
      () => {
        if (!current) return;
        // `LL` reads the dictionary it was made from: typesafe-i18n's namespaces are seen only
        // by an `LL` made after they loaded, which setLocale makes (even for the same language).
        setLocale(locale);
        setWordsFor(locale);
      },
      (error: unknown) => {
        if (current) setFailure({ error });
      },
    );
    return () => {
      current = false;
    };
  }, [locale, wordsFor, setLocale]);
  // A dictionary that cannot be loaded fails like a screen's chunk: the app's error boundary.
  if (failure !== null) throw failure.error;
  return wordsFor === locale;
}
