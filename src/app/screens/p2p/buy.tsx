/** `/p2p/buy`: buy USDT or USDC for roubles by card transfer. */
import { P2P_RATE_DEBOUNCE_MS, fiatBounds } from '../../../shared/limits';
import { BuyForm } from '../../features/order-form/buy-form';
import { RequireCurrency } from '../../components/require-currency';
import { Screen } from '../../components/screen';
import { useI18nContext } from '../../i18n/language';

export function P2pBuy() {
  const { LL } = useI18nContext();
  return (
    <RequireCurrency>
      {() => (
        <Screen testId="p2p-buy" header={{ title: LL.buyForm.title(), back: '/p2p' }}>
          <BuyForm
            testId="p2p-buy-form"
            method="P2P"
            currency="RUB"
            bounds={fiatBounds('P2P', 'RUB')}
            debounceMs={P2P_RATE_DEBOUNCE_MS}
            wholeFiat={false}
            errorsInline={false}
            fiatLabel={LL.buyForm.amountRub()}
            next="waiting"
          />
        </Screen>
      )}
    </RequireCurrency>
  );
}
