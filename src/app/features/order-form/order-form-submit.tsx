/**
 * The end of every order form: the orders still open when the server refused a new one at the
 * active-order limit, then Continue (Telegram's main button inside Telegram). Continue waits for
 * the rate, for every required field and for an order already being sent.
 */
import type { QuotedOrder } from './use-quoted-order';
import { useI18nContext } from '../../i18n/language';
import { OpenOrders } from './open-orders';
import { PrimaryAction } from '../../components/primary-action';

export function OrderFormSubmit({
  order,
  missing,
  onSubmit,
}: {
  readonly order: Pick<QuotedOrder, 'rate' | 'submitting' | 'openOrders'>;
  /** A required field is still empty. */
  readonly missing: boolean;
  readonly onSubmit: () => void;
}) {
  const { LL } = useI18nContext();
  return (
    <>
      <OpenOrders orders={order.openOrders} />
      <div className="screen__actions">
        <PrimaryAction
          submit
          text={LL.common.continue()}
          disabled={order.submitting || order.rate === undefined || missing}
          loading={order.submitting}
          onClick={onSubmit}
          testId="continue"
        />
      </div>
    </>
  );
}
