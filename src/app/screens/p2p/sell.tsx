/**
 * `/p2p/sell`: sell USDT or USDC for roubles paid to a bank card (spec sections 2 and 5). The
 * crypto and RUB amounts recompute each other with the live sell rate; the card number takes
 * digits only, at most 16, shown in groups of 4; the holder is upper case. Success goes to
 * /order/{orderId}/send-crypto.
 */
import { valibotResolver } from '@hookform/resolvers/valibot';
import { Input, List, Section, Text } from '@telegram-apps/telegram-ui';
import { useEffect } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useLocation } from 'wouter';
import {
  cryptoForFiat,
  fiatForCrypto,
  parseAmount,
  sanitizeAmountInput,
} from '../../../shared/amounts';
import { cardDigits, formatCardNumber, normalizeCardHolder } from '../../../shared/cards';
import { CRYPTO_DECIMALS, P2P_RATE_DEBOUNCE_MS, fiatBounds } from '../../../shared/limits';
import {
  DEFAULT_CRYPTO,
  DEFAULT_NETWORK,
  networksFor,
  type CryptoCurrency,
} from '../../../shared/networks';
import { orderScreenPath } from '../../../shared/order-screens';
import { sellFormSchema, type SellFormValues } from '../../../shared/schemas/forms';
import { createOrder } from '../../api/orders';
import { FieldInput } from '../../components/field-input';
import { fieldSetter } from '../../forms';
import { CoinSwitch } from '../../components/coin-switch';
import { createFailureText } from '../../components/failure-text';
import { formErrorText } from '../../components/form-error-text';
import { NetworkSelect } from '../../components/network-select';
import { RequireCurrency } from '../../components/require-currency';
import { Screen } from '../../components/screen';
import { useEnvironment } from '../../environment-context';
import {
  currencySign,
  formatCrypto,
  formatFiat,
  formatNumber,
  formatRate,
} from '../../../shared/format';
import { useQuotedOrder } from '../../hooks/use-quoted-order';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { hapticError, showAlert } from '../../telegram/actions';
import { OpenOrders } from '../../components/open-orders';
import { PrimaryAction } from '../../components/primary-action';

const BOUNDS = fiatBounds('P2P', 'RUB');

export function P2pSell() {
  return <RequireCurrency>{() => <SellForm />}</RequireCurrency>;
}

function SellForm() {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const { inTelegram } = useEnvironment();
  const [, navigate] = useLocation();
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
  const { rate, submitting, openOrders, submit } = useQuotedOrder(
    {
      currency: 'RUB',
      operation: 'SELL',
      cryptoCurrency: values.cryptoCurrency,
      paymentMethod: 'P2P',
      amount: parseAmount(values.fiatAmount),
      debounceMs: P2P_RATE_DEBOUNCE_MS,
    },
    {
      onCreated: (orderId) => navigate(orderScreenPath(orderId, 'send-crypto')),
      onFailure: async (error) => {
        hapticError();
        await showAlert(createFailureText(error, LL, language), inTelegram);
      },
    },
  );

  // The crypto amount leads on the sell side: a new rate recomputes the roubles.
  useEffect(() => {
    const crypto = parseAmount(form.getValues('cryptoAmount'));
    form.setValue(
      'fiatAmount',
      crypto === undefined || rate === undefined ? '' : fiatForCrypto(crypto, rate),
    );
  }, [rate, form]);

  const validate = form.formState.isSubmitted;
  const set = fieldSetter(form);

  const message = (key: string | undefined) =>
    formErrorText(key, LL, { language, bounds: BOUNDS, currencyLabel: 'RUB' });
  const errors = form.formState.errors;

  const onSubmit = form.handleSubmit(
    async (data) => {
      const amount = parseAmount(data.cryptoAmount) ?? 0;
      const totalAt = (agreed: number) => parseAmount(fiatForCrypto(amount, agreed)) ?? 0;
      await submit({
        create: async (agreed) => {
          const { orderId } = await createOrder({
            type: 'SELL',
            amount,
            currency: 'RUB',
            cryptoCurrency: data.cryptoCurrency,
            network: data.network,
            rate: agreed,
            totalRub: totalAt(agreed),
            cardNumber: cardDigits(data.cardNumber),
            cardHolder: data.cardHolder.trim(),
            bankName: data.bankName.trim(),
            phone: data.phone.trim(),
            comment: data.comment.trim(),
            paymentMethod: 'P2P',
          });
          return orderId;
        },
        confirmNewRate: (newRate) =>
          LL.buyForm.rateChangedBody({
            rate: formatRate(newRate, 'RUB', language),
            total: formatCrypto(amount, data.cryptoCurrency, language),
            amount: formatFiat(totalAt(newRate), 'RUB', language),
          }),
      });
    },
    async (invalid) => {
      hapticError();
      const first = message(
        invalid.cryptoAmount?.message ??
          invalid.fiatAmount?.message ??
          invalid.cardNumber?.message ??
          invalid.cardHolder?.message ??
          invalid.bankName?.message ??
          invalid.phone?.message ??
          invalid.comment?.message,
      );
      if (first !== null) await showAlert(first, inTelegram);
    },
  );

  const missing = [values.cryptoAmount, values.cardNumber, values.cardHolder, values.bankName].some(
    (v) => v.trim() === '',
  );
  const fiatError = message(errors.fiatAmount?.message);
  const cardError = message(errors.cardNumber?.message);
  const holderError = message(errors.cardHolder?.message);
  const bankError = message(errors.bankName?.message);
  const phoneError = message(errors.phone?.message);
  const commentError = message(errors.comment?.message);

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
                      rate: formatRate(rate, 'RUB', language),
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
            <FieldInput
              header={LL.sellForm.youReceive()}
              name="fiatAmount"
              inputMode="decimal"
              autoComplete="off"
              placeholder={formatNumber(BOUNDS.min, language)}
              value={values.fiatAmount}
              disabled={rate === undefined}
              error={fiatError}
              errorTestId="fiat-error"
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
              after={<span className="input-unit">{currencySign('RUB', language)}</span>}
            />
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
            <FieldInput
              header={LL.sellForm.cardNumber()}
              name="cardNumber"
              inputMode="numeric"
              autoComplete="cc-number"
              placeholder="0000 0000 0000 0000"
              value={formatCardNumber(values.cardNumber)}
              error={cardError}
              errorTestId="card-error"
              onChange={(event) => set('cardNumber', cardDigits(event.target.value))}
            />
            <FieldInput
              header={LL.sellForm.cardHolder()}
              name="cardHolder"
              autoComplete="cc-name"
              autoCapitalize="characters"
              placeholder="IVAN PETROV"
              value={values.cardHolder}
              error={holderError}
              errorTestId="holder-error"
              onChange={(event) => {
                // Checked while typing, not only on submit: a name typed in Cyrillic is said to
                // need Latin letters at once (Russian cards carry the holder in Latin).
                const holder = normalizeCardHolder(event.target.value);
                form.setValue('cardHolder', holder, { shouldValidate: validate || holder !== '' });
              }}
            />
            <FieldInput
              header={LL.sellForm.bankName()}
              name="bankName"
              placeholder={language === 'ru' ? 'Т-Банк' : 'T-Bank'}
              value={values.bankName}
              error={bankError}
              errorTestId="bank-error"
              onChange={(event) => set('bankName', event.target.value)}
            />
            <FieldInput
              header={LL.sellForm.phone()}
              name="phone"
              type="tel"
              inputMode="tel"
              autoComplete="tel"
              placeholder="+7 900 000-00-00"
              value={values.phone}
              error={phoneError}
              errorTestId="phone-error"
              onChange={(event) => set('phone', event.target.value)}
            />
            <FieldInput
              header={LL.sellForm.comment()}
              name="comment"
              value={values.comment}
              error={commentError}
              errorTestId="comment-error"
              onChange={(event) => set('comment', event.target.value)}
            />
          </Section>
        </List>
        <OpenOrders orders={openOrders} />
        <div className="screen__actions">
          <PrimaryAction
            submit
            text={LL.common.continue()}
            disabled={submitting || rate === undefined || missing}
            loading={submitting}
            onClick={() => void onSubmit()}
            testId="continue"
          />
        </div>
      </form>
    </Screen>
  );
}
