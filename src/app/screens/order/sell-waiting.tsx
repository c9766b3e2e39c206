/**
 * `/order/{orderId}/sell-waiting`: the chain check of a sell: the amounts
 * and the submitted hash while the table's polling waits for the order to move on, with what the
 * chain shows of it where the network is checked on the chain; support with the
 * order's number. The hash opens on the network's block explorer. The card of a sell made in this
 * tab may be saved here for the next sell.
 */
import { List, Placeholder, Section, Spinner } from '@telegram-apps/telegram-ui';
import { ChainCheckRow, showsDepositCheck } from '../../features/order/chain-check-row';
import { MyOrdersButton } from '../../components/my-orders-button';
import { Loading } from '../../components/loading';
import { OrderAmounts } from '../../features/order/order-amounts';
import { OrderNotFoundScreen } from '../../features/order/order-not-found';
import { OrderSupportButton } from '../../features/order/order-support-button';
import { SaveCardOffer } from '../../features/saved-details/save-offer';
import { Screen } from '../../components/screen';
import { TxHashRow } from '../../features/order/tx-hash-row';
import { useOrderScreen } from '../../features/order/use-order-screen';
import { useI18nContext } from '../../i18n/language';

export function SellWaiting({ orderId }: { readonly orderId: string }) {
  const { LL } = useI18nContext();
  const { order, notFound } = useOrderScreen('sell-waiting', orderId);
  if (notFound) return <OrderNotFoundScreen testId="sell-waiting" orderId={orderId} />;

  return (
    <Screen
      testId="sell-waiting"
      header={{ title: LL.sellWaiting.headerTitle(), back: '/my-orders' }}
    >
      {order === undefined ? (
        <Loading />
      ) : (
        <>
          <Placeholder
            header={
              order.status === 'TX_CONFIRMED' ? LL.complete.sendingFunds() : LL.sellWaiting.title()
            }
            description={
              order.status === 'TX_CONFIRMED' ? LL.complete.processingTime() : LL.sellWaiting.body()
            }
          >
            <Spinner size="l" />
          </Placeholder>
          <List>
            {/* First: it is what the seller watches, above the fold on a narrow phone. */}
            {showsDepositCheck(order) && <ChainCheckRow check={order.chainCheck} />}
            <OrderAmounts order={order} />
            {order.txHash !== null && (
              <Section>
                <TxHashRow
                  label={LL.sendCrypto.txHash()}
                  hash={order.txHash}
                  network={order.network}
                  testId="tx-hash"
                />
              </Section>
            )}
            <SaveCardOffer order={order} />
          </List>
          <div className="screen__actions">
            <MyOrdersButton />
            <OrderSupportButton orderId={orderId} />
          </div>
        </>
      )}
    </Screen>
  );
}
