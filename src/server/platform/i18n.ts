/** The server's words, from the app's dictionaries (`i18n/`), by `Accept-Language`. */
import { i18nObject } from '../../../i18n/i18n-util';
import { loadAllLocales } from '../../../i18n/i18n-util.sync';
import type { TranslationFunctions } from '../../../i18n/i18n-types';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '../../shared/api';
import type { ErrorCode } from '../../shared/errors';

loadAllLocales();
const translators: Record<Language, TranslationFunctions> = {
  ru: i18nObject('ru'),
  en: i18nObject('en'),
};

/** Honouring q-values; ru when none is supported. */
export function negotiateLanguage(header: string | undefined): Language {
  if (header === undefined) return DEFAULT_LANGUAGE;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q === undefined ? 1 : Number(q.slice(2));
      return { lang: tag.trim().toLowerCase().split('-')[0], quality, index };
    })
    .filter((r) => Number.isFinite(r.quality) && r.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  return (ranked.find((r) => isLanguage(r.lang))?.lang as Language | undefined) ?? DEFAULT_LANGUAGE;
}

export function translator(language: Language): TranslationFunctions {
  return translators[language];
}

/** Chosen in the app, else the Telegram client's (`language_code`), else the base language. */
export function preferredLanguage(
  chosen: Language | null | undefined,
  telegramCode: string | null | undefined,
): Language {
  const telegram = telegramCode?.toLowerCase().split('-')[0];
  return chosen ?? (isLanguage(telegram) ? telegram : DEFAULT_LANGUAGE);
}

export function errorMessage(code: ErrorCode, language: Language): string {
  return translators[language].apiErrors[code]();
}
