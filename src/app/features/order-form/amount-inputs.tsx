/**
 * The two amounts of an order form (spec section 5), each taking only what its currency can hold:
 * the crypto amount up to CRYPTO_DECIMALS places, the fiat amount up to two (or whole, where the
 * form says so). Each hands on the amount as it is kept, for the form to work out the other.
 */
import { Input } from '@telegram-apps/telegram-ui';
import { sanitizeAmountInput } from '../../../shared/amounts';
import { currencySign, currencySignSide, formatNumber } from '../../../shared/format';
import { CRYPTO_DECIMALS } from '../../../shared/limits';
import type { CryptoCurrency } from '../../../shared/networks';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { FieldInput } from '../../components/field-input';

export function CryptoAmountInput({
  coin,
  value,
  placeholder,
  disabled = false,
  onChange,
}: {
  readonly coin: CryptoCurrency;
  readonly value: string;
  readonly placeholder: string;
  readonly disabled?: boolean;
  readonly onChange: (amount: string) => void;
}) {
  const { LL } = useI18nContext();
  const header = LL.buyForm.amountCrypto({ crypto: coin });
  return (
    <Input
      header={header}
      aria-label={header}
      name="cryptoAmount"
      inputMode="decimal"
      autoComplete="off"
      placeholder={placeholder}
      value={value}
      disabled={disabled}
      onChange={(event) =>
        onChange(
          sanitizeAmountInput(event.target.value, { decimals: true, maxDecimals: CRYPTO_DECIMALS }),
        )
      }
      after={<span className="input-unit">{coin}</span>}
    />
  );
}

export function FiatAmountInput({
  header,
  currency,
  min,
  whole,
  value,
  disabled = false,
  error,
  onChange,
}: {
  readonly header: string;
  readonly currency: string;
  /** The least amount, shown as the placeholder. */
  readonly min: number;
  /** Digits only (the bank amount). Elsewhere one decimal point is kept: dropping a typed
   * '3500,5' separator would make the amount ten times as much. */
  readonly whole: boolean;
  readonly value: string;
  readonly disabled?: boolean;
  readonly error: string | null;
  readonly onChange: (amount: string) => void;
}) {
  const { language } = useLanguage();
  // The sign stands where the amounts around the field have it: ₽ 500,000 in English.
  const side = currencySignSide(currency, language);
  const unit = (
    <span className={`input-unit input-unit--${side}`}>{currencySign(currency, language)}</span>
  );
  return (
    <FieldInput
      header={header}
      name="fiatAmount"
      inputMode={whole ? 'numeric' : 'decimal'}
      autoComplete="off"
      placeholder={formatNumber(min, language)}
      value={value}
      disabled={disabled}
      error={error}
      errorTestId="fiat-error"
      onChange={(event) =>
        onChange(sanitizeAmountInput(event.target.value, { decimals: !whole, maxDecimals: 2 }))
      }
      before={side === 'before' ? unit : undefined}
      after={side === 'after' ? unit : undefined}
    />
  );
}
