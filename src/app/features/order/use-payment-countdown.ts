/**
 * The payment timer of the P2P and bank screens: to `expiresAt`, or the
 * method's window (src/shared/limits.ts PAYMENT_WINDOWS) from `requisitesReadyAt` when the server
 * gave no deadline, on the server's clock; a warning once less than the method's threshold is left.
 */
import type { OrderDetails } from '../../../shared/api';
import { PAYMENT_WINDOWS, type TransferMethod } from '../../../shared/limits';
import { useCountdown, type Countdown } from '../../hooks/use-countdown';

/** The deadline: `expiresAt`, or `windowMs` from `requisitesReadyAt` when it is absent. */
function paymentDeadline(order: OrderDetails, windowMs: number): string | null {
  if (order.expiresAt !== null) return order.expiresAt;
  if (order.requisitesReadyAt === null) return null;
  return new Date(Date.parse(order.requisitesReadyAt) + windowMs).toISOString();
}

export interface PaymentCountdown extends Countdown {
  /** Less time left than the method's warning threshold. */
  readonly warning: boolean;
}

export function usePaymentCountdown(
  order: OrderDetails | undefined,
  method: TransferMethod,
  offsetMs: number,
): PaymentCountdown {
  const { windowMs, warningMs } = PAYMENT_WINDOWS[method];
  const countdown = useCountdown(
    order === undefined ? null : paymentDeadline(order, windowMs),
    offsetMs,
  );
  return {
    ...countdown,
    warning: countdown.remainingMs !== undefined && countdown.remainingMs < warningMs,
  };
}
