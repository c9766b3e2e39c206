/**
 * The buy form shared by P2P (/p2p/buy), bank transfer (/bank-account) and office cash
 * (/office-exchange): spec sections 2 and 5. The fiat and crypto amounts recompute each other
 * with the live rate; the coin switch resets the network to its default; the wallet placeholder
 * follows the network; the schema of src/shared checks every rule before the order is sent, and
 * a RATE_CHANGED answer is shown to the customer to confirm, never applied silently.
 */
import { valibotResolver } from '@hookform/resolvers/valibot';
import { Input, List, Section, Text } from '@telegram-apps/telegram-ui';
import { useEffect, useState, type ReactNode } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useLocation } from 'wouter';
import {
  cryptoForFiat,
  fiatForCrypto,
  parseAmount,
  sanitizeAmountInput,
} from '../../shared/amounts';
import { CRYPTO_DECIMALS, type AmountBounds } from '../../shared/limits';
import {
  DEFAULT_CRYPTO,
  DEFAULT_NETWORK,
  isEvmNetwork,
  networksFor,
  type CryptoCurrency,
} from '../../shared/networks';
import { orderScreenPath } from '../../shared/order-screens';
import type { PaymentMethod } from '../../shared/order-status';
import { buyFormSchema, type BuyFormValues } from '../../shared/schemas/forms';
import { createOrder } from '../api/orders';
import { useEnvironment } from '../environment-context';
import {
  currencySign,
  formatCrypto,
  formatFiat,
  formatNumber,
  formatRate,
} from '../../shared/format';
import { useQuotedOrder } from '../hooks/use-quoted-order';
import { useI18nContext, useLanguage } from '../i18n/language';
import { hapticError, showAlert } from '../telegram/actions';
import { CoinSwitch } from './coin-switch';
import { createFailureText } from './failure-text';
import { FieldError } from './field-error';
import { FieldInput } from './field-input';
import { fieldSetter } from '../forms';
import { formErrorText } from './form-error-text';
import { NetworkSelect } from './network-select';
import { OpenOrders } from './open-orders';
import { PrimaryAction } from './primary-action';

export interface BuyFormProps {
  readonly method: PaymentMethod;
  readonly currency: string;
  /** How bounds are named in messages: 'RUB', '₽' or the currency code (spec section 5). */
  readonly currencyLabel: string;
  readonly bounds: AmountBounds;
  readonly debounceMs: number;
  readonly refetchFrom?: number;
  /** Bank: the RUB amount takes digits only. */
  readonly wholeFiat: boolean;
  /** Bank and office show a failed creation inline; P2P alerts (spec section 8). */
  readonly errorsInline: boolean;
  readonly fiatLabel: string;
  readonly requireCity?: boolean;
  /** Extra fields (the office's city), rendered between the amounts and the network. */
  readonly extra?: (form: {
    readonly cityId: string;
    readonly setCityId: (id: string) => void;
    readonly error: ReactNode;
  }) => ReactNode;
  /** A box above the button (the office's passport / rate / wallet warning). */
  readonly notice?: ReactNode;
  /** The order screen a new order opens. */
  readonly next: 'waiting' | 'bank-requisites' | 'office-waiting';
  readonly testId: string;
}

export function BuyForm(props: BuyFormProps) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const { inTelegram } = useEnvironment();
  const [, navigate] = useLocation();
  const [inlineError, setInlineError] = useState<string | null>(null);

  const form = useForm<BuyFormValues>({
    resolver: valibotResolver(
      buyFormSchema(props.bounds, { requireCity: props.requireCity ?? false }),
    ),
    defaultValues: {
      fiatAmount: '',
      cryptoAmount: '',
      cryptoCurrency: DEFAULT_CRYPTO,
      network: DEFAULT_NETWORK[DEFAULT_CRYPTO],
      walletAddress: '',
      cityId: '',
    },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const values = useWatch({ control: form.control }) as BuyFormValues;
  const fiat = parseAmount(values.fiatAmount);
  const { rate, submitting, openOrders, submit } = useQuotedOrder(
    {
      currency: props.currency,
      operation: 'BUY',
      cryptoCurrency: values.cryptoCurrency,
      paymentMethod: props.method,
      amount: fiat,
      debounceMs: props.debounceMs,
      ...(props.refetchFrom === undefined ? {} : { refetchFrom: props.refetchFrom }),
    },
    {
      onCreated: (orderId) => navigate(orderScreenPath(orderId, props.next)),
      onFailure: async (error) => {
        hapticError();
        const text = createFailureText(error, LL, language);
        if (props.errorsInline) setInlineError(text);
        else await showAlert(text, inTelegram);
      },
    },
  );

  // The fiat amount leads: a new rate recomputes the crypto side.
  useEffect(() => {
    const current = parseAmount(form.getValues('fiatAmount'));
    form.setValue(
      'cryptoAmount',
      current === undefined || rate === undefined ? '' : cryptoForFiat(current, rate),
    );
  }, [rate, form]);

  const networks = networksFor(props.method, values.cryptoCurrency);
  const message = (key: string | undefined) =>
    formErrorText(key, LL, {
      language,
      bounds: props.bounds,
      currencyLabel: props.currencyLabel,
      network: values.network,
    });
  const errors = form.formState.errors;
  const fiatError = message(errors.fiatAmount?.message);
  const walletError = message(errors.walletAddress?.message);
  const cityError = message(errors.cityId?.message);

  const set = fieldSetter(form);
  const onFiatChange = (raw: string) => {
    const next = sanitizeAmountInput(raw, { decimals: !props.wholeFiat, maxDecimals: 2 });
    const amount = parseAmount(next);
    // Bank: an amount above the maximum is not taken (spec section 5).
    if (props.wholeFiat && amount !== undefined && amount > props.bounds.max) return;
    set('fiatAmount', next);
    form.setValue(
      'cryptoAmount',
      amount === undefined || rate === undefined ? '' : cryptoForFiat(amount, rate),
    );
  };
  const onCryptoChange = (raw: string) => {
    const next = sanitizeAmountInput(raw, { decimals: true, maxDecimals: CRYPTO_DECIMALS });
    const amount = parseAmount(next);
    const fiatValue = amount === undefined || rate === undefined ? '' : fiatForCrypto(amount, rate);
    const fiatNumber = parseAmount(fiatValue);
    if (props.wholeFiat && fiatNumber !== undefined && fiatNumber > props.bounds.max) return;
    form.setValue('cryptoAmount', next);
    set('fiatAmount', fiatValue);
  };
  const onCoinChange = (coin: CryptoCurrency) => {
    form.setValue('cryptoCurrency', coin);
    form.setValue('network', DEFAULT_NETWORK[coin]);
    form.setValue('cryptoAmount', '');
  };

  const onSubmit = form.handleSubmit(
    async (data) => {
      setInlineError(null);
      const total = parseAmount(data.fiatAmount) ?? 0;
      await submit({
        create: async (agreed) => {
          const { orderId } = await createOrder({
            type: 'BUY',
            amount: parseAmount(cryptoForFiat(total, agreed)) ?? 0,
            currency: props.currency,
            cryptoCurrency: data.cryptoCurrency,
            network: data.network,
            rate: agreed,
            totalRub: total,
            walletAddress: data.walletAddress.trim(),
            paymentMethod: props.method,
            ...(props.method === 'OFFICE' ? { cityId: data.cityId } : {}),
          } as Parameters<typeof createOrder>[0]);
          return orderId;
        },
        confirmNewRate: (newRate) =>
          LL.buyForm.rateChangedBody({
            rate: formatRate(newRate, props.currency, language),
            total: formatFiat(total, props.currency, language),
            amount: formatCrypto(
              parseAmount(cryptoForFiat(total, newRate)) ?? 0,
              data.cryptoCurrency,
              language,
            ),
          }),
      });
    },
    async (invalid) => {
      hapticError();
      const first = message(
        invalid.fiatAmount?.message ?? invalid.cityId?.message ?? invalid.walletAddress?.message,
      );
      if (first !== null && !props.errorsInline) await showAlert(first, inTelegram);
    },
  );

  const missing =
    values.fiatAmount.trim() === '' ||
    values.walletAddress.trim() === '' ||
    (props.requireCity === true && values.cityId === '');
  const disabled = submitting || rate === undefined || missing;
  const unit = currencySign(props.currency, language);

  return (
    <form
      className="buy-form"
      data-testid={props.testId}
      noValidate
      onSubmit={(event) => void onSubmit(event)}
    >
      <List>
        <Section header={LL.buyForm.coin()}>
          <div className="buy-form__coin">
            <CoinSwitch value={values.cryptoCurrency} onChange={onCoinChange} />
            <Text className="buy-form__rate" data-testid="rate">
              {rate === undefined
                ? LL.common.loadingRate()
                : LL.common.rateValue({
                    crypto: values.cryptoCurrency,
                    rate: formatRate(rate, props.currency, language),
                  })}
            </Text>
          </div>
        </Section>
        <Section>
          <FieldInput
            header={props.fiatLabel}
            name="fiatAmount"
            inputMode={props.wholeFiat ? 'numeric' : 'decimal'}
            autoComplete="off"
            placeholder={formatNumber(props.bounds.min, language)}
            value={values.fiatAmount}
            error={fiatError}
            errorTestId="fiat-error"
            onChange={(event) => onFiatChange(event.target.value)}
            after={<span className="input-unit">{unit}</span>}
          />
          <Input
            header={LL.buyForm.amountCrypto({ crypto: values.cryptoCurrency })}
            name="cryptoAmount"
            inputMode="decimal"
            autoComplete="off"
            placeholder="0"
            value={values.cryptoAmount}
            disabled={rate === undefined}
            onChange={(event) => onCryptoChange(event.target.value)}
            after={<span className="input-unit">{values.cryptoCurrency}</span>}
          />
        </Section>
        {props.extra !== undefined && (
          <Section>
            {props.extra({
              cityId: values.cityId,
              setCityId: (id) => set('cityId', id),
              error:
                cityError === null ? null : <FieldError text={cityError} testId="city-error" />,
            })}
          </Section>
        )}
        <Section>
          <NetworkSelect
            label={LL.buyForm.network()}
            networks={networks}
            value={values.network}
            onChange={(network) => set('network', network)}
          />
          <FieldInput
            header={LL.buyForm.walletAddress()}
            name="walletAddress"
            code
            placeholder={
              isEvmNetwork(values.network)
                ? LL.buyForm.walletPlaceholderEvm()
                : LL.buyForm.walletPlaceholderTron()
            }
            value={values.walletAddress}
            error={walletError}
            errorTestId="wallet-error"
            onChange={(event) => set('walletAddress', event.target.value)}
          />
        </Section>
      </List>
      {props.notice}
      {inlineError !== null && (
        <p className="form-error" role="alert" data-testid="create-error">
          {inlineError}
        </p>
      )}
      <OpenOrders orders={openOrders} />
      <div className="screen__actions">
        <PrimaryAction
          submit
          text={LL.common.continue()}
          disabled={disabled}
          loading={submitting}
          onClick={() => void onSubmit()}
          testId="continue"
        />
      </div>
    </form>
  );
}
