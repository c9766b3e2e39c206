/**
 * `/card-payment`: card payment is listed as coming soon and cannot be chosen; a customer who
 * reaches this route by a link is told so and sent back to the methods of their currency.
 */
import { Button, Placeholder } from '@telegram-apps/telegram-ui';
import { useLocation } from 'wouter';
import { methodRoute } from '../../../shared/currencies';
import { RequireCurrency } from '../../components/require-currency';
import { Screen } from '../../components/screen';
import { useI18nContext } from '../../i18n/language';

export function CardPayment() {
  const { LL } = useI18nContext();
  const [, navigate] = useLocation();
  return (
    <RequireCurrency>
      {(currency) => (
        <Screen
          testId="card-payment"
          header={{ title: LL.cardPayment.title(), back: methodRoute(currency.code) }}
        >
          <Placeholder
            header={LL.cardPayment.inDevelopment()}
            description={LL.cardPayment.hint()}
            action={
              <Button size="l" stretched onClick={() => navigate(methodRoute(currency.code))}>
                {LL.cardPayment.chooseAnother()}
              </Button>
            }
          >
            <span className="placeholder-icon" aria-hidden="true">
              💳
            </span>
          </Placeholder>
        </Screen>
      )}
    </RequireCurrency>
  );
}
