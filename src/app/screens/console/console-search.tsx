/**
 * `/console/orders`: every order, searched and filtered: an order number, a Telegram
 * id, a @username or a name; status (or all active, or those needing attention), type, method and
 * the days created; newest first, a page at a time. A link may set filters in its query
 * (`?status=WAITING_CRYPTO&type=SELL` from the queue's unmatched deposits).
 */
import { Button, Input, List, Placeholder, Section, Select } from '@telegram-apps/telegram-ui';
import { useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import type { OperatorOrderRow } from '../../../shared/operator-api';
import {
  ORDER_STATUSES,
  ORDER_TYPES,
  PAYMENT_METHODS,
  STATUS_LABEL_KEYS,
} from '../../../shared/order-status';
import { searchOrders } from '../../features/console/console-api';
import { ConsoleOrderRow } from '../../features/console/console-order-row';
import { useServerNow } from '../../features/console/console-time';
import { failureText } from '../../components/failure-text';
import { Loading } from '../../components/loading';
import { Screen } from '../../components/screen';
import { useFetchState, type FetchState } from '../../hooks/use-fetch-state';
import { useI18nContext, useLanguage } from '../../i18n/language';

/** Orders per page. */
const PAGE = 20;
/** The search runs this long after the last keystroke. */
const TYPING_PAUSE_MS = 400;

type Filters = Readonly<Record<'q' | 'status' | 'type' | 'method' | 'from' | 'to', string>>;

const NO_FILTERS: Filters = { q: '', status: '', type: '', method: '', from: '', to: '' };

/** The filters a link sets in its query; the others empty. */
function linkedFilters(search: string): Filters {
  const params = new URLSearchParams(search);
  const entries = Object.entries(NO_FILTERS).map(([name, empty]) => [
    name,
    params.get(name) ?? empty,
  ]);
  return Object.fromEntries(entries) as Filters;
}

/** The filters as the call's query: the ones set only. */
function query(filters: Filters, offset: number): Record<string, string> {
  const set: [string, string][] = Object.entries(filters).filter(
    ([, value]) => value.trim() !== '',
  );
  return Object.fromEntries([...set, ['limit', String(PAGE)], ['offset', String(offset)]]);
}

export function ConsoleSearch() {
  const { LL } = useI18nContext();
  const { typed, set, found, more } = useOrderSearch(useSearch());
  return (
    <Screen testId="console-search" header={{ title: LL.console.search(), back: '/console' }}>
      <SearchFilters typed={typed} set={set} />
      <SearchResults found={found} onMore={more} />
    </Screen>
  );
}

/** Sets one filter as typed; `now` applies it at once rather than after a pause in typing. */
type SetFilter = (name: keyof Filters, value: string, now?: boolean) => void;

interface Found {
  readonly rows: readonly OperatorOrderRow[];
  readonly hasMore: boolean;
}

/**
 * The filters as typed and as searched, and the orders found: text waits for a pause in typing,
 * the pickers apply at once, and either starts again from the first page. 'Load more' asks the
 * pages so far again, one more.
 */
function useOrderSearch(search: string): {
  readonly typed: Filters;
  readonly set: SetFilter;
  readonly found: FetchState<Found>;
  readonly more: () => void;
} {
  const [typed, setTyped] = useState<Filters>(() => linkedFilters(search));
  const [filters, setFilters] = useState<Filters>(() => linkedFilters(search));
  const [pages, setPages] = useState(1);

  useEffect(() => {
    const timer = setTimeout(() => {
      setFilters(typed);
      setPages(1);
    }, TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const key = JSON.stringify({ filters, pages });
  const found = useFetchState(key, async (signal) => {
    const rows: OperatorOrderRow[] = [];
    let hasMore = false;
    for (let page = 0; page < pages; page++) {
      const answer = await searchOrders(query(filters, page * PAGE), signal);
      rows.push(...answer.orders);
      hasMore = answer.hasMore;
    }
    return { rows, hasMore };
  });
  const set: SetFilter = (name, value, now = false) => {
    const next = { ...typed, [name]: value };
    setTyped(next);
    if (now) {
      setFilters(next);
      setPages(1);
    }
  };
  return { typed, set, found, more: () => setPages(pages + 1) };
}

/** The text searched, then status, type, method and the days created. */
function SearchFilters({ typed, set }: { readonly typed: Filters; readonly set: SetFilter }) {
  const { LL } = useI18nContext();
  return (
    <List>
      <Section>
        <Input
          name="q"
          type="search"
          placeholder={LL.console.searchQuery()}
          aria-label={LL.console.searchQuery()}
          value={typed.q}
          onChange={(event) => set('q', event.target.value)}
        />
        <Select
          name="status"
          header={LL.console.filterStatus()}
          aria-label={LL.console.filterStatus()}
          value={typed.status}
          onChange={(event) => set('status', event.target.value, true)}
        >
          <option value="">{LL.console.any()}</option>
          <option value="active">{LL.console.anyActive()}</option>
          <option value="attention">{LL.console.groups.flagged()}</option>
          {ORDER_STATUSES.map((status) => (
            <option key={status} value={status}>
              {LL.statusLabels[STATUS_LABEL_KEYS[status]]()}
            </option>
          ))}
        </Select>
        <Select
          name="type"
          header={LL.console.filterType()}
          aria-label={LL.console.filterType()}
          value={typed.type}
          onChange={(event) => set('type', event.target.value, true)}
        >
          <option value="">{LL.console.any()}</option>
          {ORDER_TYPES.map((type) => (
            <option key={type} value={type}>
              {type === 'BUY' ? LL.myOrders.buy() : LL.myOrders.sell()}
            </option>
          ))}
        </Select>
        <Select
          name="method"
          header={LL.console.filterMethod()}
          aria-label={LL.console.filterMethod()}
          value={typed.method}
          onChange={(event) => set('method', event.target.value, true)}
        >
          <option value="">{LL.console.any()}</option>
          {PAYMENT_METHODS.map((method) => (
            <option key={method} value={method}>
              {LL.paymentMethods[method]()}
            </option>
          ))}
        </Select>
        <Input
          name="from"
          type="date"
          header={LL.console.filterFrom()}
          aria-label={LL.console.filterFrom()}
          value={typed.from}
          onChange={(event) => set('from', event.target.value, true)}
        />
        <Input
          name="to"
          type="date"
          header={LL.console.filterTo()}
          aria-label={LL.console.filterTo()}
          value={typed.to}
          onChange={(event) => set('to', event.target.value, true)}
        />
      </Section>
    </List>
  );
}

/** The orders found, newest first, or why there are none; 'Load more' while more follow. */
function SearchResults({
  found,
  onMore,
}: {
  readonly found: FetchState<Found>;
  readonly onMore: () => void;
}) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const now = useServerNow(0);
  if (found.data === undefined && found.error !== undefined) {
    return <Placeholder header={failureText(found.error, LL, LL.errors.generic(), language)} />;
  }
  if (found.data === undefined) return <Loading />;
  if (found.data.rows.length === 0) return <Placeholder header={LL.console.nothingFound()} />;
  return (
    <>
      <List>
        <Section data-testid="search-results">
          {found.data.rows.map((order) => (
            <ConsoleOrderRow key={order.id} order={order} now={now} />
          ))}
        </Section>
      </List>
      {found.data.hasMore && (
        <div className="screen__actions">
          <Button size="m" stretched mode="bezeled" onClick={onMore} data-testid="search-more">
            {LL.myOrders.loadMore()}
          </Button>
        </div>
      )}
    </>
  );
}
