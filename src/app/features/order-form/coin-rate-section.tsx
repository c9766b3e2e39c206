/**
 * The top of an order form: the coin switch, and beside it the live rate of the chosen coin in
 * the form's currency, or that it is still being looked up, or being updated (the server cannot
 * quote the pair now). Switching the coin
 * puts the network back to the coin's default and clears the amount worked out at the old coin's
 * rate; the amount the customer typed stays.
 */
import { Section, Text } from '@telegram-apps/telegram-ui';
import { useFormContext, useWatch } from 'react-hook-form';
import { formatRate } from '../../../shared/format';
import { DEFAULT_NETWORK, type CryptoCurrency } from '../../../shared/networks';
import type { SellFormValues } from '../../../shared/schemas/forms';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { CoinSwitch } from './coin-switch';

/** The fields every order form has, buy or sell. */
type CoinFields = Pick<
  SellFormValues,
  'cryptoCurrency' | 'network' | 'cryptoAmount' | 'fiatAmount'
>;

export function CoinRateSection({
  rate,
  unavailable,
  currency,
  computed,
}: {
  readonly rate: number | undefined;
  readonly unavailable: boolean;
  readonly currency: string;
  /** The amount the form works out from the other at the rate. */
  readonly computed: 'cryptoAmount' | 'fiatAmount';
}) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const form = useFormContext<CoinFields>();
  const coin = useWatch({ control: form.control, name: 'cryptoCurrency' });
  const onChange = (next: CryptoCurrency) => {
    form.setValue('cryptoCurrency', next);
    form.setValue('network', DEFAULT_NETWORK[next]);
    form.setValue(computed, '');
  };
  return (
    <Section header={LL.buyForm.coin()}>
      <div className="buy-form__coin">
        <CoinSwitch value={coin} onChange={onChange} />
        <Text className="buy-form__rate" data-testid="rate">
          {rate !== undefined
            ? LL.common.rateValue({ crypto: coin, rate: formatRate(rate, currency, language) })
            : unavailable
              ? LL.common.rateUpdating()
              : LL.common.loadingRate()}
        </Text>
      </div>
    </Section>
  );
}
