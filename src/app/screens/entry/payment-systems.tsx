/**
 * `/payment-systems`: the placeholder for currencies without their own method screen: the
 * section is in development; bank cards, e-wallets and exchange points are listed, disabled.
 * Back goes to /.
 */
import { Badge, Cell, List, Placeholder, Section } from '@telegram-apps/telegram-ui';
import { Screen } from '../../components/screen';
import { useI18nContext } from '../../i18n/language';

export function PaymentSystems() {
  const { LL } = useI18nContext();
  const entries = [
    { icon: '💳', title: LL.paymentSystems.bankCards() },
    { icon: '👛', title: LL.paymentSystems.eWallets() },
    { icon: '🏪', title: LL.paymentSystems.exchangePoints() },
  ];
  return (
    <Screen testId="payment-systems" header={{ title: LL.paymentSystems.title(), back: '/' }}>
      <Placeholder
        header={LL.paymentSystems.inDevelopment()}
        description={LL.paymentSystems.inDevelopmentHint()}
      >
        <span className="placeholder-icon" aria-hidden="true">
          🛠️
        </span>
      </Placeholder>
      <List>
        <Section>
          {entries.map((entry) => (
            <Cell
              key={entry.title}
              disabled
              aria-disabled
              className="cell--disabled"
              before={<span aria-hidden="true">{entry.icon}</span>}
              titleBadge={
                <Badge type="number" mode="gray">
                  {LL.common.comingSoon()}
                </Badge>
              }
            >
              {entry.title}
            </Cell>
          ))}
        </Section>
      </List>
    </Screen>
  );
}
