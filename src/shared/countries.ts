/**
 * The countries a city can belong to: a fixed list of ISO 3166-1 alpha-2
 * codes. Their names are never stored: they come from `Intl.DisplayNames` in the customer's language.
 */

/**
 * The country codes a city may carry: the exchange's office countries, the neighbouring CIS states
 * and the places its Russian-speaking customers most often live in or travel to.
 */
export const COUNTRY_CODES = [
  // Russia and its neighbours
  'RU',
  'BY',
  'KZ',
  'UZ',
  'KG',
  'TJ',
  'AM',
  'AZ',
  'GE',
  'MN',
  // Gulf, Middle East and Mediterranean
  'AE',
  'TR',
  'IL',
  'EG',
  'CY',
  // Europe
  'RS',
  'ME',
  'DE',
  'FR',
  'ES',
  'IT',
  'GB',
  // Asia and the Americas
  'TH',
  'ID',
  'VN',
  'IN',
  'CN',
  'US',
] as const;

/** One of `COUNTRY_CODES`. */
export type CountryCode = (typeof COUNTRY_CODES)[number];

/** True when the value is one of `COUNTRY_CODES` (upper case, as ISO writes them). */
export function isCountryCode(value: unknown): value is CountryCode {
  return typeof value === 'string' && (COUNTRY_CODES as readonly string[]).includes(value);
}

/** Built once per language: constructing `Intl.DisplayNames` loads locale data. */
const displayNames: Partial<Record<'ru' | 'en', Intl.DisplayNames>> = {};

/**
 * The country's name in Russian or English, from `Intl.DisplayNames` (ru-RU, en-GB); the code itself
 * when the runtime has no name for it (a browser or Node built without full ICU data).
 */
export function countryName(code: CountryCode, language: 'ru' | 'en'): string {
  let names = displayNames[language];
  if (names === undefined) {
    try {
      names = new Intl.DisplayNames([language === 'ru' ? 'ru-RU' : 'en-GB'], { type: 'region' });
    } catch {
      return code;
    }
    displayNames[language] = names;
  }
  return names.of(code) ?? code;
}
