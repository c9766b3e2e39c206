/**
 * What a customer sees while an operator's answer is awaited (requisites, office instructions):
 * a spinner with the screen's words, the time waited so far, and, while the order has one, the
 * time left before the server cancels it for want of an answer (REQUISITES_TIMEOUT, stored as
 * the order's deadline).
 */
import { Placeholder, Spinner, Text } from '@telegram-apps/telegram-ui';
import { formatDuration, useCountdown } from '../../hooks/use-countdown';
import { useElapsed } from './use-elapsed';
import { useI18nContext } from '../../i18n/language';

export function OperatorWait(props: {
  readonly header: string;
  readonly hint: string;
  /** When the wait began (epoch ms on this device). */
  readonly since: number;
  /** The order's deadline while it waits for the operator, else null. */
  readonly deadline: string | null | undefined;
  /** The server's clock minus this device's. */
  readonly offsetMs: number;
}) {
  const { LL } = useI18nContext();
  const elapsed = useElapsed(props.since);
  const autoCancel = useCountdown(props.deadline, props.offsetMs);
  return (
    <>
      <Placeholder header={props.header} description={props.hint}>
        <Spinner size="l" />
      </Placeholder>
      <Text className="waiting__elapsed" data-testid="elapsed">
        {LL.waiting.elapsed({ time: formatDuration(elapsed, false) })}
      </Text>
      <AutoCancelTime remainingMs={autoCancel.remainingMs} />
    </>
  );
}

/** The time left before the server cancels an order for want of an operator's answer. */
export function AutoCancelTime({ remainingMs }: { readonly remainingMs: number | undefined }) {
  const { LL } = useI18nContext();
  if (remainingMs === undefined) return null;
  return (
    <Text className="waiting__auto-cancel" data-testid="auto-cancel">
      {LL.waiting.autoCancel({ time: formatDuration(remainingMs) })}
    </Text>
  );
}
