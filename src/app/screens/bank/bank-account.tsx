/**
 * `/bank-account`: buy with roubles by bank transfer, 500 000 – 1 000 000 ₽: digits only, the
 * rate refetched 500 ms after typing once the minimum is reached, a failed creation shown inline
 * in red.
 */
import { Text } from '@telegram-apps/telegram-ui';
import { formatFiat } from '../../../shared/format';
import { BANK_RATE_DEBOUNCE_MS, fiatBounds } from '../../../shared/limits';
import { BuyForm } from '../../features/order-form/buy-form';
import { RequireCurrency } from '../../components/require-currency';
import { Screen } from '../../components/screen';
import { useI18nContext, useLanguage } from '../../i18n/language';

export function BankAccount() {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const bounds = fiatBounds('BANK_ACCOUNT', 'RUB');
  return (
    <RequireCurrency>
      {() => (
        <Screen testId="bank-account" header={{ title: LL.bankForm.title(), back: '/rub-method' }}>
          <Text className="screen__hint" data-testid="min-hint">
            {LL.bankForm.minHint({ amount: formatFiat(bounds.min, 'RUB', language) })}
          </Text>
          <BuyForm
            testId="bank-form"
            method="BANK_ACCOUNT"
            currency="RUB"
            bounds={bounds}
            debounceMs={BANK_RATE_DEBOUNCE_MS}
            refetchFrom={bounds.min}
            wholeFiat
            errorsInline
            fiatLabel={LL.buyForm.amountRub()}
            next="bank-requisites"
          />
        </Screen>
      )}
    </RequireCurrency>
  );
}
