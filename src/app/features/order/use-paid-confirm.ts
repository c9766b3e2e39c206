/**
 * 'I have paid' asks first: what counts as paid is the exact amount, from an account in
 * the customer's own name, before the countdown ends; anything else is returned, not credited.
 */
import type { OrderSummary } from '../../../shared/api';
import { useEnvironment } from '../../environment-context';
import { formatFiat } from '../../../shared/format';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { askConfirm } from '../../telegram/actions';

/** Asks the customer to confirm they paid `order` as it must be paid; true when they do. */
export function usePaidConfirm(order: OrderSummary | undefined): () => Promise<boolean> {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const { inTelegram } = useEnvironment();
  return async () =>
    order !== undefined &&
    (await askConfirm(
      LL.payment.confirmPaid({ amount: formatFiat(order.totalRub, order.currency, language) }),
      { ok: LL.payment.confirmPaidOk(), cancel: LL.payment.notYet() },
      inTelegram,
    ));
}
