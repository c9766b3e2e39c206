/** USDC / USDT (spec section 2: USDC is the default coin). */
import { SegmentedControl } from '@telegram-apps/telegram-ui';
import { CRYPTO_CURRENCIES, type CryptoCurrency } from '../../../shared/networks';
import { hapticSelection } from '../../telegram/actions';

const ORDER: readonly CryptoCurrency[] = ['USDC', 'USDT'];

export function CoinSwitch({
  value,
  onChange,
}: {
  readonly value: CryptoCurrency;
  readonly onChange: (coin: CryptoCurrency) => void;
}) {
  return (
    <SegmentedControl className="coin-switch" data-testid="coin-switch">
      {ORDER.filter((coin) => CRYPTO_CURRENCIES.includes(coin)).map((coin) => (
        <SegmentedControl.Item
          key={coin}
          selected={coin === value}
          data-coin={coin}
          type="button"
          aria-selected={coin === value}
          onClick={() => {
            if (coin === value) return;
            hapticSelection();
            onChange(coin);
          }}
        >
          {coin}
        </SegmentedControl.Item>
      ))}
    </SegmentedControl>
  );
}
