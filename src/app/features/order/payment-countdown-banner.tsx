/**
 * The payment timer above the P2P card and the bank details: the time
 * left, the screen's warning once little is left, and the note that expiry cancels the order.
 */
import type { PaymentCountdown } from './use-payment-countdown';
import { formatDuration } from '../../hooks/use-countdown';
import { useI18nContext } from '../../i18n/language';
import { CountdownBanner } from './countdown-banner';

export function PaymentCountdownBanner({
  countdown,
  withHours,
  warning,
}: {
  readonly countdown: PaymentCountdown;
  /** h:mm:ss even under an hour (the bank's timer), else m:ss. */
  readonly withHours: boolean;
  /** The screen's words for little time left. */
  readonly warning: string;
}) {
  const { LL } = useI18nContext();
  if (countdown.remainingMs === undefined) return null;
  return (
    <CountdownBanner
      text={LL.payment.timeLeft({ time: formatDuration(countdown.remainingMs, withHours) })}
      warning={countdown.warning ? warning : null}
      note={LL.payment.expiryNote()}
    />
  );
}
