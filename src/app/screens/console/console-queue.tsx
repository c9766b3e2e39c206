/**
 * `/console`: the operators' queue (issue 11): the orders waiting for an operator, one section per
 * group (src/shared/operator-queue.ts) with its count, most urgent first, asked again every
 * 10 seconds while open; above them, the deposits that came without a hash and matched no single
 * order (issue 23), when there are any.
 */
import { Button, List, Placeholder, Section, Text } from '@telegram-apps/telegram-ui';
import { useState } from 'react';
import { useLocation } from 'wouter';
import type { IncomingDeposit } from '../../../shared/operator-api';
import { Loading } from '../../components/loading';
import { Screen } from '../../components/screen';
import { clockOffset } from '../../hooks/use-countdown';
import { useFetchState } from '../../hooks/use-fetch-state';
import { fetchIncoming, fetchQueue } from '../../api/operator';
import { failureText } from '../../components/failure-text';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { QueueIncomingDeposits } from '../../components/console/console-incoming';
import { ConsoleOrderRow } from '../../components/console/console-order-row';
import { useServerNow } from '../../components/console/console-time';

/** How often the open queue is asked again. */
const QUEUE_POLL_MS = 10_000;

/** The unmatched deposits the queue lists: the pages read so far, and whether more follow. */
interface IncomingList {
  readonly deposits: readonly IncomingDeposit[];
  readonly hasMore: boolean;
}
const NO_INCOMING: IncomingList = { deposits: [], hasMore: false };

export function ConsoleQueue() {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const [, navigate] = useLocation();
  const queue = useFetchState(
    'queue',
    async (signal) => {
      const answer = await fetchQueue(signal);
      return { answer, offsetMs: clockOffset(answer.serverTime) };
    },
    { intervalMs: QUEUE_POLL_MS },
  );
  const now = useServerNow(queue.data?.offsetMs ?? 0);
  // Apart from the queue: a failure here hides the list and leaves the queue as it is.
  const [incomingPages, setIncomingPages] = useState(1);
  const incoming = useFetchState(
    `incoming:${incomingPages}`,
    async (signal) => {
      const deposits: IncomingDeposit[] = [];
      let hasMore = false;
      for (let page = 0; page < incomingPages; page++) {
        const answer = await fetchIncoming(deposits.length, signal);
        deposits.push(...answer.deposits);
        hasMore = answer.hasMore;
        if (!hasMore) break;
      }
      return { deposits, hasMore };
    },
    { intervalMs: QUEUE_POLL_MS },
  );
  // While the next page loads, the list shown so far stays (state kept from the last answer).
  const [shownIncoming, setShownIncoming] = useState<IncomingList>(NO_INCOMING);
  if (incoming.data !== undefined && incoming.data !== shownIncoming) {
    setShownIncoming(incoming.data);
  }

  let body;
  if (queue.data === undefined && queue.error !== undefined) {
    body = <Placeholder header={failureText(queue.error, LL, LL.errors.generic(), language)} />;
  } else if (queue.data === undefined) {
    body = <Loading />;
  } else {
    body = (
      <List>
        <QueueIncomingDeposits
          deposits={shownIncoming.deposits}
          onMore={shownIncoming.hasMore ? () => setIncomingPages(incomingPages + 1) : undefined}
        />
        {queue.data.answer.groups.map(({ group, count, orders }) => (
          <Section
            key={group}
            header={`${LL.console.groups[group]()} · ${count}`}
            data-queue-group={group}
            data-count={count}
          >
            {orders.length === 0 ? (
              <Text className="console-empty">{LL.console.empty()}</Text>
            ) : (
              orders.map((order) => <ConsoleOrderRow key={order.id} order={order} now={now} />)
            )}
          </Section>
        ))}
      </List>
    );
  }

  return (
    <Screen testId="console-queue" header={{ title: LL.console.title(), back: '/currencies' }}>
      <div className="console-links">
        {(
          [
            ['/console/orders', LL.console.search(), 'console-search-entry'],
            ['/console/rates', LL.console.rates(), 'console-rates-entry'],
          ] as const
        ).map(([path, label, testId]) => (
          <Button
            key={path}
            size="m"
            stretched
            mode="bezeled"
            onClick={() => navigate(path)}
            data-testid={testId}
          >
            {label}
          </Button>
        ))}
      </div>
      {body}
    </Screen>
  );
}
