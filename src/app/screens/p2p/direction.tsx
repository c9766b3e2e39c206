/** `/p2p`: buy or sell; My orders carries the origin route p2p, so its back returns here. */
import { Button, Cell, List, Section } from '@telegram-apps/telegram-ui';
import { useLocation } from 'wouter';
import { RequireCurrency } from '../../components/require-currency';
import { Screen } from '../../components/screen';
import { useI18nContext } from '../../i18n/language';
import { hapticSelection } from '../../telegram/actions';

export function P2pDirection() {
  const { LL } = useI18nContext();
  const [, navigate] = useLocation();
  const go = (direction: 'buy' | 'sell') => {
    hapticSelection();
    navigate(`/p2p/${direction}`);
  };
  return (
    <RequireCurrency>
      {() => (
        <Screen testId="p2p" header={{ title: LL.p2p.title(), back: '/rub-method' }}>
          <List>
            <Section header={LL.p2p.chooseDirection()}>
              <Cell
                data-direction="buy"
                before={<span className="order-card__arrow order-card__arrow--buy">↓</span>}
                description={LL.p2p.buyDescription()}
                onClick={() => go('buy')}
              >
                {LL.p2p.buy()}
              </Cell>
              <Cell
                data-direction="sell"
                before={<span className="order-card__arrow order-card__arrow--sell">↑</span>}
                description={LL.p2p.sellDescription()}
                onClick={() => go('sell')}
              >
                {LL.p2p.sell()}
              </Cell>
            </Section>
          </List>
          <div className="screen__actions">
            <Button
              size="l"
              stretched
              mode="bezeled"
              onClick={() => navigate('/my-orders?from=p2p')}
            >
              {LL.common.myOrders()}
            </Button>
          </div>
        </Screen>
      )}
    </RequireCurrency>
  );
}
