/**
 * The actions under what to pay (P2P card, bank details): 'I have paid' (Telegram's main button
 * inside Telegram), cancel while the order may be cancelled (Telegram's secondary button where the
 * client has one), and support. Each of 'I have paid'
 * and cancel waits while the other runs.
 */
import type { OrderCancel } from './use-order-cancel';
import { useI18nContext } from '../../i18n/language';
import { CancelOrderButton } from './cancel-order-button';
import { OrderSupportButton } from './order-support-button';
import { PrimaryAction } from '../../components/primary-action';

export function PaymentActions({
  orderId,
  cancel,
  paying,
  disabled = false,
  onPaid,
}: {
  readonly orderId: string;
  readonly cancel: OrderCancel;
  /** 'I have paid' is running. */
  readonly paying: boolean;
  /** 'I have paid' is not offered now (the P2P timer ran out). */
  readonly disabled?: boolean;
  readonly onPaid: () => void;
}) {
  const { LL } = useI18nContext();
  return (
    <div className="screen__actions">
      <PrimaryAction
        text={LL.payment.iHavePaid()}
        loading={paying}
        disabled={cancel.busy || disabled}
        onClick={onPaid}
        testId="i-have-paid"
      />
      <CancelOrderButton cancel={cancel} disabled={paying} second />
      <OrderSupportButton orderId={orderId} />
    </div>
  );
}
