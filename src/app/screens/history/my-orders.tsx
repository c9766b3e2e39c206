/**
 * `/my-orders`: the order history: tabs all / active / completed, orders grouped
 * by creation date (today, yesterday, a date, in the customer's language), pages of 20 with
 * 'load more', an empty message per tab. A card opens the screen the history-card table of
 * src/shared names. `?orderId=<id>` (a deep link) opens that order's screen at once, or says
 * 'Order not found'. Back goes to /. Above the tabs, the newest ended order can be repeated in one
 * tap (its form, filled, at today's rate).
 */
import {
  Button,
  Cell,
  List,
  Placeholder,
  Section,
  SegmentedControl,
  Spinner,
} from '@telegram-apps/telegram-ui';
import { useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { HistoryFilter, OrderSummary } from '../../../shared/api';
import { HISTORY_PAGE_SIZE } from '../../../shared/limits';
import { historyCardTarget, orderScreenPath } from '../../../shared/order-screens';
import { ApiError } from '../../api/client';
import { fetchHistory, fetchOrder } from '../../api/orders';
import { OrderCard, orderNetworkAndMethod } from '../../components/order-card';
import { OrderNotFoundScreen } from '../../features/order/order-not-found';
import { Screen } from '../../components/screen';
import { ScreenActionButton } from '../../components/screen-action-button';
import { formatCrypto, formatFiat, localeOf } from '../../../shared/format';
import { useFetchState } from '../../hooks/use-fetch-state';
import { useRepeatOrder, type RepeatableOrder } from '../../features/order/use-repeat-order';
import { isRepeatable } from '../../repeat-order';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { hapticSelection } from '../../telegram/actions';

const TABS: readonly HistoryFilter[] = ['all', 'active', 'completed'];

/** The pages of a tab already shown: the next page is asked for from their end. */
interface Shown {
  readonly filter: HistoryFilter;
  readonly orders: readonly OrderSummary[];
}

export function MyOrders() {
  const search = new URLSearchParams(useSearch());
  const orderId = search.get('orderId');
  // /p2p's My orders button carries the origin route p2p, and back returns there.
  const back = search.get('from') === 'p2p' ? '/p2p' : '/';
  return orderId === null ? <History back={back} /> : <OpenOrder orderId={orderId} />;
}

/** The deep link: the order's own screen, chosen by the history-card table. */
function OpenOrder({ orderId }: { readonly orderId: string }) {
  const { LL } = useI18nContext();
  const [, navigate] = useLocation();
  const { error } = useFetchState(orderId, (signal) => fetchOrder(orderId, signal), {
    onData: (order) =>
      navigate(orderScreenPath(order.id, historyCardTarget(order)), { replace: true }),
    onError: (failure) => {
      if (!(failure instanceof ApiError && failure.code === 'ORDER_NOT_FOUND')) {
        console.warn('deep-linked order failed', failure);
      }
    },
  });
  if (error !== undefined) {
    return <OrderNotFoundScreen testId="my-orders" orderId={orderId} back="/" />;
  }
  return (
    <Screen testId="my-orders" header={{ title: LL.myOrders.title(), back: '/' }}>
      <div className="screen--center">
        <Spinner size="l" />
      </div>
    </Screen>
  );
}

function History({ back }: { readonly back: string }) {
  const { LL } = useI18nContext();
  const history = useHistoryPages();
  const { filter, orders, page } = history;
  const failed = page.error !== undefined;
  const last = orders.find((order) => isRepeatable(order));

  return (
    <Screen testId="my-orders" header={{ title: LL.myOrders.title(), back, home: true }}>
      {last !== undefined && <RepeatLast order={last} />}
      <HistoryTabs filter={filter} onChoose={history.choose} />
      {orders.length === 0 && page.loading && (
        <div className="screen--center">
          <Spinner size="l" />
        </div>
      )}
      {orders.length === 0 && failed && (
        <Placeholder
          header={LL.errors.generic()}
          action={
            <Button size="m" onClick={page.reload}>
              {LL.common.retry()}
            </Button>
          }
        />
      )}
      {orders.length === 0 && !page.loading && !failed && <NoOrders filter={filter} />}
      {orders.length > 0 && <OrdersByDay orders={orders} filter={filter} />}
      {history.hasMore && (
        <ScreenActionButton
          mode="bezeled"
          loading={page.loading}
          onClick={history.loadMore}
          testId="load-more"
        >
          {LL.myOrders.loadMore()}
        </ScreenActionButton>
      )}
    </Screen>
  );
}

/**
 * The tab chosen and its orders, a page of HISTORY_PAGE_SIZE at a time: the pages already shown
 * are kept, and the next is asked for from their end; another tab starts again from its first.
 */
function useHistoryPages() {
  const [filter, setFilter] = useState<HistoryFilter>('all');
  const [earlier, setEarlier] = useState<Shown>({ filter: 'all', orders: [] });
  const offset = earlier.filter === filter ? earlier.orders.length : 0;
  const page = useFetchState(
    `${filter}@${offset}`,
    (signal) => fetchHistory({ filter, limit: HISTORY_PAGE_SIZE, offset }, signal),
    { onError: (error) => console.warn('history failed', error) },
  );

  const choose = (next: HistoryFilter) => {
    if (next === filter) return;
    hapticSelection();
    setFilter(next);
    setEarlier({ filter: next, orders: [] });
  };
  const loadMore = () => {
    if (page.data === undefined) {
      page.reload();
      return;
    }
    setEarlier({ filter, orders: [...earlier.orders, ...page.data.orders] });
  };

  return {
    filter,
    page,
    orders: [...(offset === 0 ? [] : earlier.orders), ...(page.data?.orders ?? [])],
    // While the next page loads, or after it failed, 'load more' stays to show progress or retry.
    hasMore: page.data?.hasMore ?? offset > 0,
    choose,
    loadMore,
  };
}

/** The newest ended order of those shown, repeated in one tap. */
function RepeatLast({ order }: { readonly order: RepeatableOrder }) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const repeat = useRepeatOrder();
  return (
    <List>
      <Section footer={LL.repeatOrder.hint()}>
        <Cell
          data-testid="repeat-last"
          before={
            <span className="repeat-last__icon" aria-hidden="true">
              ↻
            </span>
          }
          subtitle={`${formatCrypto(order.amount, order.cryptoCurrency, language)} · ${orderNetworkAndMethod(order, LL)}`}
          after={
            repeat.busy ? (
              <Spinner size="s" />
            ) : (
              formatFiat(order.totalRub, order.currency, language)
            )
          }
          multiline
          onClick={() => void repeat.run(order)}
        >
          {LL.repeatOrder.repeatLast()}
        </Cell>
      </Section>
    </List>
  );
}

/** All / active / completed. */
function HistoryTabs({
  filter,
  onChoose,
}: {
  readonly filter: HistoryFilter;
  readonly onChoose: (tab: HistoryFilter) => void;
}) {
  const { LL } = useI18nContext();
  const tabLabel = {
    all: LL.myOrders.all(),
    active: LL.myOrders.active(),
    completed: LL.myOrders.completed(),
  };
  return (
    <div className="history-tabs">
      <SegmentedControl>
        {TABS.map((tab) => (
          <SegmentedControl.Item
            key={tab}
            type="button"
            selected={tab === filter}
            aria-selected={tab === filter}
            data-tab={tab}
            onClick={() => onChoose(tab)}
          >
            {tabLabel[tab]}
          </SegmentedControl.Item>
        ))}
      </SegmentedControl>
    </div>
  );
}

/** The tab's own words for having no orders. */
function NoOrders({ filter }: { readonly filter: HistoryFilter }) {
  const { LL } = useI18nContext();
  const empty = {
    all: LL.myOrders.emptyAll(),
    active: LL.myOrders.emptyActive(),
    completed: LL.myOrders.emptyCompleted(),
  };
  return (
    <Placeholder header={empty[filter]}>
      <span className="placeholder-icon" aria-hidden="true">
        🗂️
      </span>
    </Placeholder>
  );
}

/** The orders as cards, a section per day created. */
function OrdersByDay({
  orders,
  filter,
}: {
  readonly orders: readonly OrderSummary[];
  readonly filter: HistoryFilter;
}) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const groups = groupByDay(orders, language, {
    today: LL.myOrders.today(),
    yesterday: LL.myOrders.yesterday(),
  });
  return (
    <List data-testid="history-list" data-filter={filter}>
      {groups.map((group) => (
        <Section key={group.key} header={group.label}>
          {group.orders.map((order) => (
            <OrderCard key={order.id} order={order} />
          ))}
        </Section>
      ))}
    </List>
  );
}

interface DayGroup {
  readonly key: string;
  readonly label: string;
  readonly orders: OrderSummary[];
}

/** Orders by the local day they were created: today, yesterday, or the date. */
function groupByDay(
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
