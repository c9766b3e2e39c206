/**
 * 'I received' on office-waiting and 'I received money' on office-details: asks
 * first whether the crypto arrived, naming the amount and the wallet where the order
 * is known, then posts office-confirm and opens complete; a failure is told under the screen's
 * own headline.
 */
import { useLocation } from 'wouter';
import type { OrderDetails } from '../../../shared/api';
import { orderScreenPath } from '../../../shared/order-screens';
import { orderNumber } from '../../../shared/support-link';
import { confirmOfficeReceipt } from '../../api/orders';
import { useEnvironment } from '../../environment-context';
import { formatCrypto } from '../../../shared/format';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { askConfirm, hapticSuccess } from '../../telegram/actions';
import { useOrderAction, type FailureHeadline, type OrderAction } from './use-order-action';
import type { OrderScreenView } from './use-order-screen';

export function useOfficeConfirm(
  orderId: string,
  headline: FailureHeadline,
  options: {
    /** An order screen's own way out, so that its polling cannot send it elsewhere as well. */
    readonly leave?: OrderScreenView['leave'];
    /** The order, when the screen has it: the question names its crypto and wallet. */
    readonly order?: OrderDetails | undefined;
  } = {},
): OrderAction<[]> {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const { inTelegram } = useEnvironment();
  const [, navigate] = useLocation();
  const action = useOrderAction({
    name: 'office-confirm',
    call: () => confirmOfficeReceipt(orderId),
    onDone: () => {
      hapticSuccess();
      if (options.leave === undefined) navigate(orderScreenPath(orderId, 'complete'));
      else options.leave('complete', { replace: false });
    },
    headline,
  });
  const { order } = options;
  const question =
    order === undefined || order.walletAddress === null
      ? LL.officeWaiting.confirmReceivedOrder({ id: orderNumber(orderId) })
      : LL.officeWaiting.confirmReceived({
          amount: formatCrypto(order.amount, order.cryptoCurrency, language),
          wallet: order.walletAddress,
        });

  return {
    ...action,
    run: async () => {
      if (action.busy) return;
      const received = await askConfirm(
        question,
        { ok: LL.officeWaiting.confirmReceivedOk(), cancel: LL.payment.notYet() },
        inTelegram,
      );
      if (received) await action.run();
    },
  };
}
