/**
 * `/console/orders`: every order, searched and filtered (issue 11): an order number, a Telegram
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
import { searchOrders } from '../../api/operator';
import { ConsoleOrderRow } from '../../components/console/console-order-row';
import { useServerNow } from '../../components/console/console-time';
import { failureText } from '../../components/failure-text';
import { Loading } from '../../components/loading';
import { Screen } from '../../components/screen';
import { useFetchState } from '../../hooks/use-fetch-state';
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
  const { language } = useLanguage();
  const search = useSearch();
  const [typed, setTyped] = useState<Filters>(() => linkedFilters(search));
  const [filters, setFilters] = useState<Filters>(() => linkedFilters(search));
  const [pages, setPages] = useState(1);
  const now = useServerNow(0);

  // Text waits for a pause in typing; the pickers apply at once.
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
  const set = (name: keyof Filters, value: string, now = false) => {
    const next = { ...typed, [name]: value };
    setTyped(next);
    if (now) {
      setFilters(next);
      setPages(1);
    }
  };

  let results;
  if (found.data === undefined && found.error !== undefined) {
    results = <Placeholder header={failureText(found.error, LL, LL.errors.generic(), language)} />;
  } else if (found.data === undefined) {
    results = <Loading />;
  } else if (found.data.rows.length === 0) {
    results = <Placeholder header={LL.console.nothingFound()} />;
  } else {
    results = (
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
            <Button
              size="m"
              stretched
              mode="bezeled"
              onClick={() => setPages(pages + 1)}
              data-testid="search-more"
            >
              {LL.myOrders.loadMore()}
            </Button>
          </div>
        )}
      </>
    );
  }

  return (
    <Screen testId="console-search" header={{ title: LL.console.search(), back: '/console' }}>
      <List>
        <Section>
          <Input
            name="q"
            type="search"
            placeholder={LL.console.searchQuery()}
            value={typed.q}
            onChange={(event) => set('q', event.target.value)}
          />
          <Select
            name="status"
            header={LL.console.filterStatus()}
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
            value={typed.from}
            onChange={(event) => set('from', event.target.value, true)}
          />
          <Input
            name="to"
            type="date"
            header={LL.console.filterTo()}
            value={typed.to}
            onChange={(event) => set('to', event.target.value, true)}
          />
        </Section>
      </List>
      {results}
    </Screen>
  );
}
