/**
 * `/console`: the operators' queue: the orders waiting for an operator, one section per
 * group (src/shared/operator-queue.ts) with its count, most urgent first, asked again every
 * 10 seconds while open; above them, the deposits that came without a hash and matched no single
 * order, when there are any.
 */
import { Button, List, Placeholder, Section, Text } from '@telegram-apps/telegram-ui';
import { useState } from 'react';
import { useLocation } from 'wouter';
import type { IncomingDeposit } from '../../../shared/operator-api';
import { Loading } from '../../components/loading';
import { Screen } from '../../components/screen';
import { clockOffset } from '../../hooks/use-countdown';
import { useFetchState } from '../../hooks/use-fetch-state';
import { fetchIncoming, fetchQueue } from '../../features/console/console-api';
import { failureText } from '../../components/failure-text';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { QueueIncomingDeposits } from '../../features/console/console-incoming';
import { ConsoleOrderRow } from '../../features/console/console-order-row';
import { useServerNow } from '../../features/console/console-time';

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
  const queue = useFetchState(
    'queue',
    async (signal) => {
      const answer = await fetchQueue(signal);
      return { answer, offsetMs: clockOffset(answer.serverTime) };
    },
    { intervalMs: QUEUE_POLL_MS },
  );
  const now = useServerNow(queue.data?.offsetMs ?? 0);
  const incoming = useIncomingDeposits();

  let body;
  if (queue.data === undefined && queue.error !== undefined) {
    body = <Placeholder header={failureText(queue.error, LL, LL.errors.generic(), language)} />;
  } else if (queue.data === undefined) {
    body = <Loading />;
  } else {
    body = (
      <List>
        <QueueIncomingDeposits deposits={incoming.deposits} onMore={incoming.more} />
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
      <ConsoleLinks />
      {body}
    </Screen>
  );
}

/**
 * The unmatched deposits, asked apart from the queue at the same interval: a failure here hides
 * the list and leaves the queue as it is. 'Load more' asks the pages so far again, one more; while
 * they load, the list shown so far stays.
 */
function useIncomingDeposits(): {
  readonly deposits: readonly IncomingDeposit[];
  /** Asks for one more page; undefined while no more follow. */
  readonly more: (() => void) | undefined;
} {
  const [pages, setPages] = useState(1);
  const incoming = useFetchState(
    `incoming:${pages}`,
    async (signal) => {
      const deposits: IncomingDeposit[] = [];
      let hasMore = false;
      for (let page = 0; page < pages; page++) {
        const answer = await fetchIncoming(deposits.length, signal);
        deposits.push(...answer.deposits);
        hasMore = answer.hasMore;
        if (!hasMore) break;
      }
      return { deposits, hasMore };
    },
    { intervalMs: QUEUE_POLL_MS },
  );
  // State kept from the last answer, so a page still loading does not empty the list.
  const [shown, setShown] = useState<IncomingList>(NO_INCOMING);
  if (incoming.data !== undefined && incoming.data !== shown) {
    setShown(incoming.data);
  }
  return {
    deposits: shown.deposits,
    more: shown.hasMore ? () => setPages(pages + 1) : undefined,
  };
}

/** The ways from the queue to the search and the rates. */
function ConsoleLinks() {
  const { LL } = useI18nContext();
  const [, navigate] = useLocation();
  return (
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
  );
}
