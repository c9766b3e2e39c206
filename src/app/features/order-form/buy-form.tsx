/**
 * The buy form shared by P2P (/p2p/buy), bank transfer (/bank-account) and office cash
 * (/office-exchange): spec sections 2 and 5. The fiat and crypto amounts recompute each other
 * with the live rate; the coin switch resets the network to its default; the wallet placeholder
 * follows the network; the schema of src/shared checks every rule before the order is sent, and
 * a RATE_CHANGED answer is shown to the customer to confirm, never applied silently. A repeated
 * order opens it filled (repeat-order.ts); inside Telegram, closing the app asks first while the
 * customer's own amount or wallet is in it.
 *
 * One react-hook-form form, shared through FormProvider by its parts: the coin and rate, the
 * amounts, the form's extra fields, the network and wallet, and the submit; useBuyOrder holds
 * the rate and the order's creation.
 */
import { valibotResolver } from '@hookform/resolvers/valibot';
import { List, Section } from '@telegram-apps/telegram-ui';
import { useState, type ReactNode } from 'react';
import { FormProvider, useForm, useFormContext, useWatch } from 'react-hook-form';
import { cryptoForFiat, fiatForCrypto, parseAmount } from '../../../shared/amounts';
import {
  DEFAULT_CRYPTO,
  DEFAULT_NETWORK,
  isEvmNetwork,
  networksFor,
} from '../../../shared/networks';
import { buyFormSchema, type BuyFormValues } from '../../../shared/schemas/forms';
import { fieldSetter, useFormHoldsInput } from '../../forms';
import { useBuyErrorText, useBuyOrder, type BuyOrder, type BuyOrderOptions } from './use-buy-order';
import { useSavedDetails } from '../../hooks/use-saved-details';
import { useI18nContext } from '../../i18n/language';
import { useRepeatedValues } from '../../repeat-order';
import { useClosingConfirmation } from '../../telegram/closing-confirmation';
import { CryptoAmountInput, FiatAmountInput } from './amount-inputs';
import { CoinRateSection } from './coin-rate-section';
import { FieldError } from '../../components/field-error';
import { FieldInput } from '../../components/field-input';
import { NetworkSelect } from './network-select';
import { OrderFormSubmit } from './order-form-submit';
import { SavedWalletChoices } from '../../components/saved-choices';
import { ScanRefusedText, WalletScanButton, type ScanRefused } from './wallet-scan';

export interface BuyFormProps extends BuyOrderOptions {
  /** Bank: the RUB amount takes digits only. */
  readonly wholeFiat: boolean;
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
  readonly testId: string;
}

export function BuyForm(props: BuyFormProps) {
  const repeated = useRepeatedValues('BUY');
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
      ...repeated,
    },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const order = useBuyOrder(form, props);
  useClosingConfirmation(useFormHoldsInput(form, ['fiatAmount', 'walletAddress']));

  return (
    <FormProvider {...form}>
      <form
        className="buy-form"
        data-testid={props.testId}
        noValidate
        onSubmit={(event) => void order.onSubmit(event)}
      >
        <List>
          <CoinRateSection
            rate={order.rate}
            unavailable={order.rateUnavailable}
            currency={props.currency}
            computed="cryptoAmount"
          />
          <BuyAmounts options={props} rate={order.rate} />
          {props.extra !== undefined && <BuyExtra options={props} extra={props.extra} />}
          <BuyWallet options={props} />
        </List>
        {props.notice}
        {order.inlineError !== null && (
          <p className="form-error" role="alert" data-testid="create-error">
            {order.inlineError}
          </p>
        )}
        <BuySubmit order={order} requireCity={props.requireCity === true} />
      </form>
    </FormProvider>
  );
}

/**
 * The fiat amount and the crypto amount, each recomputing the other at the rate. An amount that
 * would take a bank order above its maximum is not taken (spec section 5).
 */
function BuyAmounts({
  options,
  rate,
}: {
  readonly options: BuyFormProps;
  readonly rate: number | undefined;
}) {
  const form = useFormContext<BuyFormValues>();
  const [fiatAmount, cryptoAmount, coin] = useWatch({
    control: form.control,
    name: ['fiatAmount', 'cryptoAmount', 'cryptoCurrency'],
  });
  const errorText = useBuyErrorText(form.control, options);
  const set = fieldSetter(form);
  const onFiatChange = (next: string) => {
    const amount = parseAmount(next);
    if (options.wholeFiat && amount !== undefined && amount > options.bounds.max) return;
    set('fiatAmount', next);
    form.setValue(
      'cryptoAmount',
      amount === undefined || rate === undefined ? '' : cryptoForFiat(amount, rate),
    );
  };
  const onCryptoChange = (next: string) => {
    const amount = parseAmount(next);
    const fiatValue = amount === undefined || rate === undefined ? '' : fiatForCrypto(amount, rate);
    const fiatNumber = parseAmount(fiatValue);
    if (options.wholeFiat && fiatNumber !== undefined && fiatNumber > options.bounds.max) return;
    form.setValue('cryptoAmount', next);
    set('fiatAmount', fiatValue);
  };

  return (
    <Section>
      <FiatAmountInput
        header={options.fiatLabel}
        currency={options.currency}
        min={options.bounds.min}
        whole={options.wholeFiat}
        value={fiatAmount}
        error={errorText(form.formState.errors.fiatAmount?.message)}
        onChange={onFiatChange}
      />
      <CryptoAmountInput
        coin={coin}
        value={cryptoAmount}
        placeholder="0"
        disabled={rate === undefined}
        onChange={onCryptoChange}
      />
    </Section>
  );
}

/** The form's own fields (the office's city), given the value, its setter and its message. */
function BuyExtra({
  options,
  extra,
}: {
  readonly options: BuyFormProps;
  readonly extra: NonNullable<BuyFormProps['extra']>;
}) {
  const form = useFormContext<BuyFormValues>();
  const cityId = useWatch({ control: form.control, name: 'cityId' });
  const errorText = useBuyErrorText(form.control, options);
  const error = errorText(form.formState.errors.cityId?.message);
  const set = fieldSetter(form);
  return (
    <Section>
      {extra({
        cityId,
        setCityId: (id) => set('cityId', id),
        error: error === null ? null : <FieldError text={error} testId="city-error" />,
      })}
    </Section>
  );
}

/**
 * The network of the coin and the wallet the coins go to, its placeholder that network's, typed,
 * scanned or picked among the saved wallets of that network (a refused scan's message stays until
 * the customer types, scans, picks or changes network).
 */
function BuyWallet({ options }: { readonly options: BuyFormProps }) {
  const { LL } = useI18nContext();
  const form = useFormContext<BuyFormValues>();
  const [coin, network, walletAddress] = useWatch({
    control: form.control,
    name: ['cryptoCurrency', 'network', 'walletAddress'],
  });
  const [scanRefused, setScanRefused] = useState<ScanRefused | null>(null);
  const saved = useSavedDetails();
  const errorText = useBuyErrorText(form.control, options);
  const set = fieldSetter(form);
  const setWallet = (next: string) => {
    setScanRefused(null);
    set('walletAddress', next);
  };
  return (
    <>
      <Section>
        <NetworkSelect
          label={LL.buyForm.network()}
          networks={networksFor(options.method, coin)}
          value={network}
          onChange={(next) => {
            setScanRefused(null);
            set('network', next);
          }}
        />
      </Section>
      <SavedWalletChoices network={network} wallets={saved.details?.wallets} onPick={setWallet} />
      <Section>
        <FieldInput
          header={LL.buyForm.walletAddress()}
          name="walletAddress"
          code
          placeholder={
            isEvmNetwork(network)
              ? LL.buyForm.walletPlaceholderEvm()
              : LL.buyForm.walletPlaceholderTron()
          }
          value={walletAddress}
          error={errorText(form.formState.errors.walletAddress?.message)}
          errorTestId="wallet-error"
          onChange={(event) => setWallet(event.target.value)}
          after={
            <WalletScanButton network={network} onAddress={setWallet} onRefused={setScanRefused} />
          }
        />
        <ScanRefusedText refused={scanRefused?.network === network ? scanRefused : null} />
      </Section>
    </>
  );
}

/** Continue, held back while the amount, the wallet or (at the office) the city is empty. */
function BuySubmit({
  order,
  requireCity,
}: {
  readonly order: BuyOrder;
  readonly requireCity: boolean;
}) {
  const { control } = useFormContext<BuyFormValues>();
  const [fiatAmount, walletAddress, cityId] = useWatch({
    control,
    name: ['fiatAmount', 'walletAddress', 'cityId'],
  });
  const missing =
    fiatAmount.trim() === '' || walletAddress.trim() === '' || (requireCity && cityId === '');
  return <OrderFormSubmit order={order} missing={missing} onSubmit={() => void order.onSubmit()} />;
}
