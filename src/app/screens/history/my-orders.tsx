/**
 * `/my-orders`, first form: the customer's active orders, plainly, newest first, with the
 * deep-linked order (`?orderId=`) marked. The history with tabs, grouping and paging replaces it.
 */
import { Button, List, Placeholder, Section, Spinner } from '@telegram-apps/telegram-ui';
import { useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import { API_PATHS, type ActiveOrdersResponse, type OrderSummary } from '../../../shared/api';
import { apiRequest } from '../../api/client';
import { OrderCard } from '../../components/order-card';
import { Screen } from '../../components/screen';
import { useI18nContext } from '../../i18n/language';

type State =
  | { readonly kind: 'loading' }
  | { readonly kind: 'failed' }
  | { readonly kind: 'loaded'; readonly orders: readonly OrderSummary[] };

export function MyOrders() {
  const { LL } = useI18nContext();
  const orderId = new URLSearchParams(useSearch()).get('orderId');
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    apiRequest<ActiveOrdersResponse>(API_PATHS.activeOrders, { signal: controller.signal }).then(
      ({ orders }) => setState({ kind: 'loaded', orders }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ kind: 'failed' });
        if (!(error instanceof DOMException)) console.error('Active orders failed', error);
      },
    );
    return () => controller.abort();
  }, [attempt]);

  const retry = () => {
    setState({ kind: 'loading' });
    setAttempt((n) => n + 1);
  };

  return (
    <Screen testId="my-orders" header={{ title: LL.myOrders.title(), back: '/', home: true }}>
      {state.kind === 'loading' && (
        <div className="screen--center">
          <Spinner size="l" />
        </div>
      )}
      {state.kind === 'failed' && (
        <Placeholder
          header={LL.errors.generic()}
          action={
            <Button size="m" onClick={retry}>
              {LL.startupError.retry()}
            </Button>
          }
        />
      )}
      {state.kind === 'loaded' && state.orders.length === 0 && (
        <Placeholder header={LL.myOrders.emptyActive()}>
          <span className="placeholder-icon" aria-hidden="true">
            🗂️
          </span>
        </Placeholder>
      )}
      {state.kind === 'loaded' && state.orders.length > 0 && (
        <List>
          <Section header={LL.myOrders.activeTitle()}>
            {state.orders.map((order) => (
              <OrderCard key={order.id} order={order} highlighted={order.id === orderId} />
            ))}
          </Section>
        </List>
      )}
    </Screen>
  );
}
