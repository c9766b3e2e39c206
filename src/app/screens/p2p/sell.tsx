/**
 * `/p2p/sell`: sell USDT or USDC for roubles paid to a bank card. The
 * crypto and RUB amounts recompute each other with the live sell rate; the card number takes
 * digits only, at most 16, shown in groups of 4; the holder is upper case. Success goes to
 * /order/{orderId}/send-crypto.
 *
 * One react-hook-form form, shared through FormProvider by its parts: the coin and rate, the
 * amounts, the network, the saved cards (a tap fills the card), the card the roubles go to, and
 * the submit; useSellOrder holds the rate and the order's creation. A repeated order opens it
 * filled (repeat-order.ts).
 */
import { valibotResolver } from '@hookform/resolvers/valibot';
import { List, Section } from '@telegram-apps/telegram-ui';
import type { ComponentProps } from 'react';
import { FormProvider, useForm, useFormContext, useWatch } from 'react-hook-form';
import { cryptoForFiat, fiatForCrypto, parseAmount } from '../../../shared/amounts';
import { cardDigits, formatCardNumber, normalizeCardHolder } from '../../../shared/cards';
import { fiatBounds } from '../../../shared/limits';
import { DEFAULT_CRYPTO, DEFAULT_NETWORK, networksFor } from '../../../shared/networks';
import { sellFormSchema, type SellFormValues } from '../../../shared/schemas/forms';
import { CryptoAmountInput, FiatAmountInput } from '../../features/order-form/amount-inputs';
import { CoinRateSection } from '../../features/order-form/coin-rate-section';
import { FieldInput } from '../../components/field-input';
import { formErrorText } from '../../components/form-error-text';
import { NetworkSelect } from '../../features/order-form/network-select';
import { OrderFormSubmit } from '../../features/order-form/order-form-submit';
import { SavedCardChoices } from '../../components/saved-choices';
import { RequireCurrency } from '../../components/require-currency';
import { Screen } from '../../components/screen';
import { fieldSetter, useFormHoldsInput } from '../../forms';
import { useSavedDetails } from '../../hooks/use-saved-details';
import { useSellOrder, type SellOrder } from '../../features/order-form/use-sell-order';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { useRepeatedValues } from '../../repeat-order';
import { useClosingConfirmation } from '../../telegram/closing-confirmation';

const BOUNDS = fiatBounds('P2P', 'RUB');
/** The fields the customer types: while one differs from how the form opened, closing asks first. */
const TYPED = ['cryptoAmount', 'cardNumber', 'cardHolder', 'bankName', 'phone', 'comment'] as const;

export function P2pSell() {
  return <RequireCurrency>{() => <SellForm />}</RequireCurrency>;
}

/** The text of a sell form's error key, naming the P2P rouble bounds. */
function useSellErrorText(): (key: string | undefined) => string | null {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  return (key) => formErrorText(key, LL, { language, bounds: BOUNDS, currency: 'RUB' });
}

function SellForm() {
  const { LL } = useI18nContext();
  const repeated = useRepeatedValues('SELL');
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
      ...repeated,
    },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const order = useSellOrder(form, useSellErrorText());
  useClosingConfirmation(useFormHoldsInput(form, TYPED));

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
            <CoinRateSection
              rate={order.rate}
              unavailable={order.rateUnavailable}
              currency="RUB"
              computed="fiatAmount"
            />
            <SellAmounts rate={order.rate} />
            <SellNetwork />
            <SellSavedCards />
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
  const form = useFormContext<SellFormValues>();
  const [cryptoAmount, fiatAmount, coin] = useWatch({
    control: form.control,
    name: ['cryptoAmount', 'fiatAmount', 'cryptoCurrency'],
  });
  const errorText = useSellErrorText();
  const set = fieldSetter(form);
  return (
    <Section>
      <CryptoAmountInput
        coin={coin}
        value={cryptoAmount}
        placeholder="100"
        onChange={(next) => {
          const amount = parseAmount(next);
          set('cryptoAmount', next);
          set(
            'fiatAmount',
            amount === undefined || rate === undefined ? '' : fiatForCrypto(amount, rate),
          );
        }}
      />
      <FiatAmountInput
        header={LL.sellForm.youReceive()}
        currency="RUB"
        min={BOUNDS.min}
        whole={false}
        value={fiatAmount}
        disabled={rate === undefined}
        error={errorText(form.formState.errors.fiatAmount?.message)}
        onChange={(next) => {
          const total = parseAmount(next);
          set('fiatAmount', next);
          set(
            'cryptoAmount',
            total === undefined || rate === undefined ? '' : cryptoForFiat(total, rate),
          );
        }}
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

/** The saved cards, first: a tap fills the number, the holder and the bank. */
function SellSavedCards() {
  const form = useFormContext<SellFormValues>();
  const saved = useSavedDetails();
  const set = fieldSetter(form);
  return (
    <SavedCardChoices
      cards={saved.details?.cards}
      onPick={(card) => {
        set('cardNumber', cardDigits(card.cardNumber));
        set('cardHolder', normalizeCardHolder(card.cardHolder));
        set('bankName', card.bankName);
      }}
    />
  );
}

/** The card the roubles are paid to: number, holder, bank, and the optional phone and comment. */
function SellCard() {
  const { language } = useLanguage();
  const form = useFormContext<SellFormValues>();
  const validate = form.formState.isSubmitted;
  const set = fieldSetter(form);
  return (
    <Section>
      <CardField
        name="cardNumber"
        errorTestId="card-error"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="0000 0000 0000 0000"
        shown={formatCardNumber}
        onTyped={(typed) => set('cardNumber', cardDigits(typed))}
      />
      <CardField
        name="cardHolder"
        errorTestId="holder-error"
        autoComplete="cc-name"
        autoCapitalize="characters"
        placeholder="IVAN PETROV"
        onTyped={(typed) => {
          // Checked while typing, not only on submit: a name typed in Cyrillic is said to
          // need Latin letters at once (Russian cards carry the holder in Latin).
          const holder = normalizeCardHolder(typed);
          form.setValue('cardHolder', holder, { shouldValidate: validate || holder !== '' });
        }}
      />
      <CardField
        name="bankName"
        errorTestId="bank-error"
        placeholder={language === 'ru' ? 'Т-Банк' : 'T-Bank'}
      />
      <CardField
        name="phone"
        errorTestId="phone-error"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        placeholder="+7 900 000-00-00"
      />
      <CardField name="comment" errorTestId="comment-error" />
    </Section>
  );
}

type CardFieldName = 'cardNumber' | 'cardHolder' | 'bankName' | 'phone' | 'comment';

/**
 * A field of the card section, its label, value and message those of its name: shown as `shown`
 * writes it, and set as typed (see fieldSetter) unless `onTyped` says otherwise.
 */
function CardField({
  name,
  shown = (value) => value,
  onTyped,
  ...input
}: Omit<ComponentProps<typeof FieldInput>, 'name' | 'header' | 'value' | 'error' | 'onChange'> & {
  readonly name: CardFieldName;
  readonly shown?: (value: string) => string;
  readonly onTyped?: (typed: string) => void;
}) {
  const { LL } = useI18nContext();
  const form = useFormContext<SellFormValues>();
  const value = useWatch({ control: form.control, name });
  const errorText = useSellErrorText();
  const set = fieldSetter(form);
  return (
    <FieldInput
      {...input}
      header={LL.sellForm[name]()}
      name={name}
      value={shown(value)}
      error={errorText(form.formState.errors[name]?.message)}
      onChange={(event) => (onTyped ?? ((typed) => set(name, typed)))(event.target.value)}
    />
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
