/**
 * The top of an order form (spec section 5): the coin switch, and beside it the live rate of the
 * chosen coin in the form's currency, or that it is still being looked up.
 */
import { Section, Text } from '@telegram-apps/telegram-ui';
import { formatRate } from '../../shared/format';
import type { CryptoCurrency } from '../../shared/networks';
import { useI18nContext, useLanguage } from '../i18n/language';
import { CoinSwitch } from './coin-switch';

export function CoinRateSection({
  coin,
  rate,
  currency,
  onChange,
}: {
  readonly coin: CryptoCurrency;
  readonly rate: number | undefined;
  readonly currency: string;
  readonly onChange: (coin: CryptoCurrency) => void;
}) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  return (
    <Section header={LL.buyForm.coin()}>
      <div className="buy-form__coin">
        <CoinSwitch value={coin} onChange={onChange} />
        <Text className="buy-form__rate" data-testid="rate">
          {rate === undefined
            ? LL.common.loadingRate()
            : LL.common.rateValue({ crypto: coin, rate: formatRate(rate, currency, language) })}
        </Text>
      </div>
    </Section>
  );
}
