/**
 * `/p2p/sell`: sell USDT or USDC for roubles paid to a bank card (spec sections 2 and 5). The
 * crypto and RUB amounts recompute each other with the live sell rate; the card number takes
 * digits only, at most 16, shown in groups of 4; the holder is upper case. Success goes to
 * /order/{orderId}/send-crypto.
 *
 * One react-hook-form form, shared through FormProvider by its parts: the coin and rate, the
 * amounts, the network, the card the roubles go to, and the submit; useSellOrder holds the rate
 * and the order's creation.
 */
import { valibotResolver } from '@hookform/resolvers/valibot';
import { Input, List, Section } from '@telegram-apps/telegram-ui';
import { FormProvider, useForm, useFormContext, useWatch } from 'react-hook-form';
import {
  cryptoForFiat,
  fiatForCrypto,
  parseAmount,
  sanitizeAmountInput,
} from '../../../shared/amounts';
import { cardDigits, formatCardNumber, normalizeCardHolder } from '../../../shared/cards';
import { currencySign, formatNumber } from '../../../shared/format';
import { CRYPTO_DECIMALS, fiatBounds } from '../../../shared/limits';
import {
  DEFAULT_CRYPTO,
  DEFAULT_NETWORK,
  networksFor,
  type CryptoCurrency,
} from '../../../shared/networks';
import { sellFormSchema, type SellFormValues } from '../../../shared/schemas/forms';
import { CoinRateSection } from '../../components/coin-rate-section';
import { FieldInput } from '../../components/field-input';
import { formErrorText } from '../../components/form-error-text';
import { NetworkSelect } from '../../components/network-select';
import { OrderFormSubmit } from '../../components/order-form-submit';
import { RequireCurrency } from '../../components/require-currency';
import { Screen } from '../../components/screen';
import { fieldSetter } from '../../forms';
import { useSellOrder, type SellOrder } from '../../hooks/use-sell-order';
import { useI18nContext, useLanguage } from '../../i18n/language';

const BOUNDS = fiatBounds('P2P', 'RUB');

export function P2pSell() {
  return <RequireCurrency>{() => <SellForm />}</RequireCurrency>;
}

/** The text of a sell form's error key, naming the P2P rouble bounds. */
function useSellErrorText(): (key: string | undefined) => string | null {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  return (key) => formErrorText(key, LL, { language, bounds: BOUNDS, currencyLabel: 'RUB' });
}

function SellForm() {
  const { LL } = useI18nContext();
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
  const order = useSellOrder(form, useSellErrorText());
  const coin = useWatch({ control: form.control, name: 'cryptoCurrency' });
  const onCoinChange = (next: CryptoCurrency) => {
    form.setValue('cryptoCurrency', next);
    form.setValue('network', DEFAULT_NETWORK[next]);
    form.setValue('fiatAmount', '');
  };

  return (
    <Screen testId="p2p-sell" header={{ title: LL.sellForm.title(), back: '/p2p' }}>
      <FormProvider {...form}>
        <form
          className="buy-form"
          noValidate
          onSubmit={(event) => void order.onSubmit(event)}
          data-testid="sell-form"
        >
          <List>
            <CoinRateSection coin={coin} rate={order.rate} currency="RUB" onChange={onCoinChange} />
            <SellAmounts rate={order.rate} />
            <SellNetwork />
            <SellCard />
          </List>
          <SellSubmit order={order} />
        </form>
      </FormProvider>
    </Screen>
  );
}

/** The crypto amount sold and the roubles it comes to, each recomputing the other at the rate. */
function SellAmounts({ rate }: { readonly rate: number | undefined }) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const form = useFormContext<SellFormValues>();
  const [cryptoAmount, fiatAmount, coin] = useWatch({
    control: form.control,
    name: ['cryptoAmount', 'fiatAmount', 'cryptoCurrency'],
  });
  const errorText = useSellErrorText();
  const set = fieldSetter(form);
  return (
    <Section>
      <Input
        header={LL.buyForm.amountCrypto({ crypto: coin })}
        name="cryptoAmount"
        inputMode="decimal"
        autoComplete="off"
        placeholder="100"
        value={cryptoAmount}
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
        after={<span className="input-unit">{coin}</span>}
      />
      <FieldInput
        header={LL.sellForm.youReceive()}
        name="fiatAmount"
        inputMode="decimal"
        autoComplete="off"
        placeholder={formatNumber(BOUNDS.min, language)}
        value={fiatAmount}
        disabled={rate === undefined}
        error={errorText(form.formState.errors.fiatAmount?.message)}
        errorTestId="fiat-error"
        onChange={(event) => {
          // Digits and one decimal point (spec section 5: only the bank amount is digits
          // only): dropping a typed '3500,5' separator would sell ten times as much.
          const next = sanitizeAmountInput(event.target.value, { decimals: true, maxDecimals: 2 });
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
  );
}

/** The network the coins are sent on, among those P2P offers for the coin. */
function SellNetwork() {
  const { LL } = useI18nContext();
  const form = useFormContext<SellFormValues>();
  const [coin, network] = useWatch({ control: form.control, name: ['cryptoCurrency', 'network'] });
  return (
    <Section>
      <NetworkSelect
        label={LL.buyForm.network()}
        networks={networksFor('P2P', coin)}
        value={network}
        onChange={(next) => form.setValue('network', next)}
      />
    </Section>
  );
}

/** The card the roubles are paid to: number, holder, bank, and the optional phone and comment. */
function SellCard() {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const form = useFormContext<SellFormValues>();
  const [cardNumber, cardHolder, bankName, phone, comment] = useWatch({
    control: form.control,
    name: ['cardNumber', 'cardHolder', 'bankName', 'phone', 'comment'],
  });
  const errors = form.formState.errors;
  const validate = form.formState.isSubmitted;
  const errorText = useSellErrorText();
  const set = fieldSetter(form);
  return (
    <Section>
      <FieldInput
        header={LL.sellForm.cardNumber()}
        name="cardNumber"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="0000 0000 0000 0000"
        value={formatCardNumber(cardNumber)}
        error={errorText(errors.cardNumber?.message)}
        errorTestId="card-error"
        onChange={(event) => set('cardNumber', cardDigits(event.target.value))}
      />
      <FieldInput
        header={LL.sellForm.cardHolder()}
        name="cardHolder"
        autoComplete="cc-name"
        autoCapitalize="characters"
        placeholder="IVAN PETROV"
        value={cardHolder}
        error={errorText(errors.cardHolder?.message)}
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
        value={bankName}
        error={errorText(errors.bankName?.message)}
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
        value={phone}
        error={errorText(errors.phone?.message)}
        errorTestId="phone-error"
        onChange={(event) => set('phone', event.target.value)}
      />
      <FieldInput
        header={LL.sellForm.comment()}
        name="comment"
        value={comment}
        error={errorText(errors.comment?.message)}
        errorTestId="comment-error"
        onChange={(event) => set('comment', event.target.value)}
      />
    </Section>
  );
}

/** Continue, held back while the amount or the card's number, holder or bank is empty. */
function SellSubmit({ order }: { readonly order: SellOrder }) {
  const { control } = useFormContext<SellFormValues>();
  const required = useWatch({
    control,
    name: ['cryptoAmount', 'cardNumber', 'cardHolder', 'bankName'],
  });
  const missing = required.some((value) => value.trim() === '');
  return <OrderFormSubmit order={order} missing={missing} onSubmit={() => void order.onSubmit()} />;
}
