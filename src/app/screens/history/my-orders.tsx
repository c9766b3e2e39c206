/**
 * `/my-orders`: the order history (spec section 2): tabs all / active / completed, orders grouped
 * by creation date (today, yesterday, a date, in the customer's language), pages of 20 with
 * 'load more', an empty message per tab. A card opens the screen the history-card table of
 * src/shared names. `?orderId=<id>` (a deep link) opens that order's screen at once, or says
 * 'Order not found'. Back goes to /.
 */
import {
  Button,
  List,
  Placeholder,
  Section,
  SegmentedControl,
  Spinner,
} from '@telegram-apps/telegram-ui';
import { useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { HistoryFilter, OrderSummary } from '../../../shared/api';
import { HISTORY_PAGE_SIZE } from '../../../shared/limits';
import { historyCardTarget, orderScreenPath } from '../../../shared/order-status';
import { ApiError } from '../../api/client';
import { fetchHistory, fetchOrder } from '../../api/orders';
import { OrderCard } from '../../components/order-card';
import { OrderNotFound } from '../../components/order-not-found';
import { Screen } from '../../components/screen';
import { localeOf } from '../../format';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { hapticSelection } from '../../telegram/actions';

const TABS: readonly HistoryFilter[] = ['all', 'active', 'completed'];

interface Page {
  /** Which tab these orders belong to: a late answer for another tab is never shown. */
  readonly filter: HistoryFilter;
  readonly orders: readonly OrderSummary[];
  readonly hasMore: boolean;
  readonly loading: boolean;
  readonly failed: boolean;
}

export function MyOrders() {
  const search = new URLSearchParams(useSearch());
  const orderId = search.get('orderId');
  // Spec section 2: /p2p's My orders button carries the origin route p2p, and back returns there.
  const back = search.get('from') === 'p2p' ? '/p2p' : '/';
  return orderId === null ? <History back={back} /> : <OpenOrder orderId={orderId} />;
}

/** The deep link: the order's own screen, chosen by the history-card table. */
function OpenOrder({ orderId }: { readonly orderId: string }) {
  const { LL } = useI18nContext();
  const [, navigate] = useLocation();
  const [missing, setMissing] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    fetchOrder(orderId, controller.signal).then(
      (order) => navigate(orderScreenPath(order.id, historyCardTarget(order)), { replace: true }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.code !== 'ORDER_NOT_FOUND') {
          console.warn('deep-linked order failed', error);
        }
        setMissing(true);
      },
    );
    return () => controller.abort();
  }, [orderId, navigate]);
  return (
    <Screen testId="my-orders" header={{ title: LL.myOrders.title(), back: '/' }}>
      {missing ? (
        <OrderNotFound />
      ) : (
        <div className="screen--center">
          <Spinner size="l" />
        </div>
      )}
    </Screen>
  );
}

function History({ back }: { readonly back: string }) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const [, navigate] = useLocation();
  const [filter, setFilter] = useState<HistoryFilter>('all');
  const [page, setPage] = useState<Page>({
    filter: 'all',
    orders: [],
    hasMore: false,
    loading: true,
    failed: false,
  });
  const [more, setMore] = useState(0);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    const offset = more === 0 ? 0 : page.orders.length;
    fetchHistory({ filter, limit: HISTORY_PAGE_SIZE, offset }, controller.signal).then(
      (answer) =>
        setPage((current) => ({
          filter,
          orders:
            offset === 0 || current.filter !== filter
              ? answer.orders
              : [...current.orders, ...answer.orders],
          hasMore: answer.hasMore,
          loading: false,
          failed: false,
        })),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.warn('history failed', error);
        setPage((current) => ({ ...current, filter, loading: false, failed: true }));
      },
    );
    return () => controller.abort();
    // `page.orders.length` is read for the offset of the next page only when `more` changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [filter, more, attempt]);

  const choose = (next: HistoryFilter) => {
    if (next === filter) return;
    hapticSelection();
    setFilter(next);
    setMore(0);
    setPage({ filter: next, orders: [], hasMore: false, loading: true, failed: false });
  };
  const loadMore = () => {
    setPage((current) => ({ ...current, loading: true }));
    setMore((n) => n + 1);
  };

  const shown = page.filter === filter ? page : { ...page, orders: [], loading: true };
  const groups = groupByDay(shown.orders, language, {
    today: LL.myOrders.today(),
    yesterday: LL.myOrders.yesterday(),
  });
  const empty = {
    all: LL.myOrders.emptyAll(),
    active: LL.myOrders.emptyActive(),
    completed: LL.myOrders.emptyCompleted(),
  };
  const tabLabel = {
    all: LL.myOrders.all(),
    active: LL.myOrders.active(),
    completed: LL.myOrders.completed(),
  };

  return (
    <Screen testId="my-orders" header={{ title: LL.myOrders.title(), back, home: true }}>
      <div className="history-tabs">
        <SegmentedControl>
          {TABS.map((tab) => (
            <SegmentedControl.Item
              key={tab}
              type="button"
              selected={tab === filter}
              aria-pressed={tab === filter}
              data-tab={tab}
              onClick={() => choose(tab)}
            >
              {tabLabel[tab]}
            </SegmentedControl.Item>
          ))}
        </SegmentedControl>
      </div>
      {shown.orders.length === 0 && shown.loading && (
        <div className="screen--center">
          <Spinner size="l" />
        </div>
      )}
      {shown.orders.length === 0 && !shown.loading && shown.failed && (
        <Placeholder
          header={LL.errors.generic()}
          action={
            <Button
              size="m"
              onClick={() => {
                setPage((current) => ({ ...current, loading: true, failed: false }));
                setAttempt((n) => n + 1);
              }}
            >
              {LL.startupError.retry()}
            </Button>
          }
        />
      )}
      {shown.orders.length === 0 && !shown.loading && !shown.failed && (
        <Placeholder header={empty[filter]}>
          <span className="placeholder-icon" aria-hidden="true">
            🗂️
          </span>
        </Placeholder>
      )}
      {shown.orders.length > 0 && (
        <List data-testid="history-list" data-filter={shown.filter}>
          {groups.map((group) => (
            <Section key={group.key} header={group.label}>
              {group.orders.map((order) => (
                <OrderCard
                  key={order.id}
                  order={order}
                  onOpen={() => navigate(orderScreenPath(order.id, historyCardTarget(order)))}
                />
              ))}
            </Section>
          ))}
        </List>
      )}
      {shown.hasMore && (
        <div className="screen__actions">
          <Button
            size="l"
            stretched
            mode="bezeled"
            loading={shown.loading}
            onClick={loadMore}
            data-testid="load-more"
          >
            {LL.myOrders.loadMore()}
          </Button>
        </div>
      )}
    </Screen>
  );
}

interface DayGroup {
  readonly key: string;
  readonly label: string;
  readonly orders: OrderSummary[];
}

/** Orders by the local day they were created: today, yesterday, or the date. */
export function groupByDay(
  orders: readonly OrderSummary[],
  language: 'ru' | 'en',
  words: { readonly today: string; readonly yesterday: string },
  now: Date = new Date(),
): DayGroup[] {
  const dayKey = (d: Date) => `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
  const today = dayKey(now);
  const yesterday = dayKey(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1));
  const thisYear = new Intl.DateTimeFormat(localeOf(language), { day: 'numeric', month: 'long' });
  const otherYear = new Intl.DateTimeFormat(localeOf(language), { dateStyle: 'long' });
  const groups: DayGroup[] = [];
  for (const order of orders) {
    const created = new Date(order.createdAt);
    const key = dayKey(created);
    let group = groups.find((g) => g.key === key);
    if (group === undefined) {
      const label =
        key === today
          ? words.today
          : key === yesterday
            ? words.yesterday
            : created.getFullYear() === now.getFullYear()
              ? thisYear.format(created)
              : otherYear.format(created);
      group = { key, label, orders: [] };
      groups.push(group);
    }
    group.orders.push(order);
  }
  return groups;
}
