/**
 * `/p2p/sell`: sell USDT or USDC for roubles paid to a bank card (spec sections 2 and 5). The
 * crypto and RUB amounts recompute each other with the live sell rate; the card number takes
 * digits only, at most 16, shown in groups of 4; the holder is upper case. Success goes to
 * /order/{orderId}/send-crypto.
 */
import { valibotResolver } from '@hookform/resolvers/valibot';
import { Button, Input, List, Section, Text } from '@telegram-apps/telegram-ui';
import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useLocation } from 'wouter';
import {
  cryptoForFiat,
  fiatForCrypto,
  parseAmount,
  sanitizeAmountInput,
} from '../../../shared/amounts';
import { cardDigits, formatCardNumber, normalizeCardHolder } from '../../../shared/cards';
import {
  CRYPTO_DECIMALS,
  P2P_RATE_DEBOUNCE_MS,
  RATE_DECIMALS,
  fiatBounds,
} from '../../../shared/limits';
import {
  DEFAULT_CRYPTO,
  DEFAULT_NETWORK,
  networksFor,
  type CryptoCurrency,
} from '../../../shared/networks';
import { orderScreenPath } from '../../../shared/order-status';
import { sellFormSchema, type SellFormValues } from '../../../shared/schemas/forms';
import { ApiError } from '../../api/client';
import { createOrder } from '../../api/orders';
import { FieldError } from '../../components/buy-form';
import { CoinSwitch } from '../../components/coin-switch';
import { createFailureText } from '../../components/failure-text';
import { formErrorText } from '../../components/form-error-text';
import { NetworkSelect } from '../../components/network-select';
import { RequireCurrency } from '../../components/require-currency';
import { Screen } from '../../components/screen';
import { useEnvironment } from '../../environment-context';
import { formatFiat, formatNumber } from '../../format';
import { useLiveRate } from '../../hooks/use-live-rate';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { askConfirm, hapticError, showAlert } from '../../telegram/actions';

const BOUNDS = fiatBounds('P2P', 'RUB');

export function P2pSell() {
  return <RequireCurrency>{() => <SellForm />}</RequireCurrency>;
}

function SellForm() {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const { inTelegram } = useEnvironment();
  const [, navigate] = useLocation();
  const [submitting, setSubmitting] = useState(false);
  const form = useForm<SellFormValues>({
    resolver: valibotResolver(sellFormSchema(BOUNDS)),
    defaultValues: {
      cryptoAmount: '',
      fiatAmount: '',
      cryptoCurrency: DEFAULT_CRYPTO,
      network: DEFAULT_NETWORK[DEFAULT_CRYPTO],
      cardNumber: '',
      cardHolder: '',
      bankName: '',
      phone: '',
      comment: '',
    },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const values = useWatch({ control: form.control }) as SellFormValues;
  const { rate, setRate } = useLiveRate({
    currency: 'RUB',
    operation: 'SELL',
    cryptoCurrency: values.cryptoCurrency,
    paymentMethod: 'P2P',
    amount: parseAmount(values.fiatAmount),
    debounceMs: P2P_RATE_DEBOUNCE_MS,
  });

  // The crypto amount leads on the sell side: a new rate recomputes the roubles.
  useEffect(() => {
    const crypto = parseAmount(form.getValues('cryptoAmount'));
    form.setValue(
      'fiatAmount',
      crypto === undefined || rate === undefined ? '' : fiatForCrypto(crypto, rate),
    );
  }, [rate, form]);

  const validate = form.formState.isSubmitted;
  const set = (name: keyof SellFormValues, value: string) =>
    form.setValue(name, value, { shouldValidate: validate });

  const message = (key: string | undefined) =>
    formErrorText(key, LL, { language, bounds: BOUNDS, currencyLabel: 'RUB' });
  const errors = form.formState.errors;

  const send = async (data: SellFormValues, agreedRate: number): Promise<void> => {
    const amount = parseAmount(data.cryptoAmount) ?? 0;
    const total = parseAmount(fiatForCrypto(amount, agreedRate)) ?? 0;
    try {
      const { orderId } = await createOrder({
        type: 'SELL',
        amount,
        currency: 'RUB',
        cryptoCurrency: data.cryptoCurrency,
        network: data.network,
        rate: agreedRate,
        totalRub: total,
        cardNumber: cardDigits(data.cardNumber),
        cardHolder: data.cardHolder.trim(),
        bankName: data.bankName.trim(),
        phone: data.phone.trim(),
        comment: data.comment.trim(),
        paymentMethod: 'P2P',
      });
      navigate(orderScreenPath(orderId, 'send-crypto'));
    } catch (error) {
      if (
        error instanceof ApiError &&
        error.code === 'RATE_CHANGED' &&
        typeof error.body.rate === 'number'
      ) {
        const newRate = error.body.rate;
        setRate(newRate);
        const newTotal = parseAmount(fiatForCrypto(amount, newRate)) ?? 0;
        const ok = await askConfirm(
          LL.buyForm.rateChangedBody({
            rate: formatNumber(newRate, language, RATE_DECIMALS),
            total: `${formatNumber(amount, language, CRYPTO_DECIMALS)} ${data.cryptoCurrency}`,
            amount: formatFiat(newTotal, 'RUB', language),
          }),
          { ok: LL.common.continue(), cancel: LL.common.cancel() },
          inTelegram,
        );
        if (ok) await send(data, newRate);
        return;
      }
      hapticError();
      await showAlert(createFailureText(error, LL), inTelegram);
    }
  };

  const onSubmit = form.handleSubmit(
    async (data) => {
      if (rate === undefined) return;
      setSubmitting(true);
      try {
        await send(data, rate);
      } finally {
        setSubmitting(false);
      }
    },
    async (invalid) => {
      hapticError();
      const first = message(
        invalid.cryptoAmount?.message ??
          invalid.fiatAmount?.message ??
          invalid.cardNumber?.message ??
          invalid.cardHolder?.message ??
          invalid.bankName?.message ??
          invalid.phone?.message,
      );
      if (first !== null) await showAlert(first, inTelegram);
    },
  );

  const missing = [values.cryptoAmount, values.cardNumber, values.cardHolder, values.bankName].some(
    (v) => v.trim() === '',
  );
  const fiatError = message(errors.fiatAmount?.message);
  const cardError = message(errors.cardNumber?.message);
  const phoneError = message(errors.phone?.message);

  return (
    <Screen testId="p2p-sell" header={{ title: LL.sellForm.title(), back: '/p2p' }}>
      <form
        className="buy-form"
        noValidate
        onSubmit={(event) => void onSubmit(event)}
        data-testid="sell-form"
      >
        <List>
          <Section header={LL.buyForm.coin()}>
            <div className="buy-form__coin">
              <CoinSwitch
                value={values.cryptoCurrency}
                onChange={(coin: CryptoCurrency) => {
                  form.setValue('cryptoCurrency', coin);
                  form.setValue('network', DEFAULT_NETWORK[coin]);
                  form.setValue('fiatAmount', '');
                }}
              />
              <Text className="buy-form__rate" data-testid="rate">
                {rate === undefined
                  ? LL.common.loadingRate()
                  : LL.common.rateValue({
                      crypto: values.cryptoCurrency,
                      rate: formatNumber(rate, language, RATE_DECIMALS),
                      currency: '₽',
                    })}
              </Text>
            </div>
          </Section>
          <Section>
            <Input
              header={LL.buyForm.amountCrypto({ crypto: values.cryptoCurrency })}
              name="cryptoAmount"
              inputMode="decimal"
              autoComplete="off"
              placeholder="100"
              value={values.cryptoAmount}
              onChange={(event) => {
                const next = sanitizeAmountInput(event.target.value, {
                  decimals: true,
                  maxDecimals: CRYPTO_DECIMALS,
                });
                const amount = parseAmount(next);
                set('cryptoAmount', next);
                set(
                  'fiatAmount',
                  amount === undefined || rate === undefined ? '' : fiatForCrypto(amount, rate),
                );
              }}
              after={<span className="input-unit">{values.cryptoCurrency}</span>}
            />
            <Input
              header={LL.sellForm.youReceive()}
              name="fiatAmount"
              inputMode="decimal"
              autoComplete="off"
              placeholder={formatNumber(BOUNDS.min, language)}
              value={values.fiatAmount}
              disabled={rate === undefined}
              status={fiatError === null ? 'default' : 'error'}
              onChange={(event) => {
                // Digits and one decimal point (spec section 5: only the bank amount is digits
                // only): dropping a typed '3500,5' separator would sell ten times as much.
                const next = sanitizeAmountInput(event.target.value, {
                  decimals: true,
                  maxDecimals: 2,
                });
                const total = parseAmount(next);
                set('fiatAmount', next);
                set(
                  'cryptoAmount',
                  total === undefined || rate === undefined ? '' : cryptoForFiat(total, rate),
                );
              }}
              after={<span className="input-unit">₽</span>}
            />
            {fiatError !== null && <FieldError text={fiatError} testId="fiat-error" />}
          </Section>
          <Section>
            <NetworkSelect
              label={LL.buyForm.network()}
              networks={networksFor('P2P', values.cryptoCurrency)}
              value={values.network}
              onChange={(network) => form.setValue('network', network)}
            />
          </Section>
          <Section>
            <Input
              header={LL.sellForm.cardNumber()}
              name="cardNumber"
              inputMode="numeric"
              autoComplete="cc-number"
              placeholder="0000 0000 0000 0000"
              value={formatCardNumber(values.cardNumber)}
              status={cardError === null ? 'default' : 'error'}
              onChange={(event) => set('cardNumber', cardDigits(event.target.value))}
            />
            {cardError !== null && <FieldError text={cardError} testId="card-error" />}
            <Input
              header={LL.sellForm.cardHolder()}
              name="cardHolder"
              autoComplete="cc-name"
              autoCapitalize="characters"
              placeholder="IVAN PETROV"
              value={values.cardHolder}
              onChange={(event) => set('cardHolder', normalizeCardHolder(event.target.value))}
            />
            <Input
              header={LL.sellForm.bankName()}
              name="bankName"
              placeholder={language === 'ru' ? 'Т-Банк' : 'T-Bank'}
              value={values.bankName}
              onChange={(event) => set('bankName', event.target.value)}
            />
            <Input
              header={LL.sellForm.phone()}
              name="phone"
              type="tel"
              inputMode="tel"
              autoComplete="tel"
              placeholder="+7 900 000-00-00"
              value={values.phone}
              status={phoneError === null ? 'default' : 'error'}
              onChange={(event) => set('phone', event.target.value)}
            />
            {phoneError !== null && <FieldError text={phoneError} testId="phone-error" />}
            <Input
              header={LL.sellForm.comment()}
              name="comment"
              value={values.comment}
              onChange={(event) => set('comment', event.target.value)}
            />
          </Section>
        </List>
        <div className="screen__actions">
          <Button
            type="submit"
            size="l"
            stretched
            disabled={submitting || rate === undefined || missing}
            loading={submitting}
            data-testid="continue"
          >
            {LL.common.continue()}
          </Button>
        </div>
      </form>
    </Screen>
  );
}
