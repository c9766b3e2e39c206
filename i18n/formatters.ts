import type { FormattersInitializer } from 'typesafe-i18n';
import type { Locales, Formatters } from './i18n-types';

/** No custom formatters: numbers, money and dates are formatted with `Intl` before they reach a text. */
export const initFormatters: FormattersInitializer<Locales, Formatters> = () => {
  const formatters: Formatters = {};
  return formatters;
};
