/**
 * How the app writes a moment (an order's creation, an event, who changed a rate when): the date
 * and the time of day, in the customer's language, on this device's clock.
 */
import { localeOf } from '../../shared/format';
import { useLanguage } from '../i18n/language';

/** Formats an ISO timestamp as a medium date and a short time in the current language. */
export function useDateTime(): (iso: string) => string {
  const { language } = useLanguage();
  const format = new Intl.DateTimeFormat(localeOf(language), {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  return (iso) => format.format(new Date(iso));
}
