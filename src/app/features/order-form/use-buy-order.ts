/**
 * The data side of the buy form (P2P, bank and office): the live rate for the fiat amount typed,
 * the crypto amount kept in step with it, and the submit that creates the order. A new rate from
 * the server is put to the customer to confirm (useQuotedOrder); a refused order is said inline
 * at the bank and office and in an alert for P2P (spec section 8).
 */
import { useEffect, useState, type BaseSyntheticEvent } from 'react';
import { useWatch, type Control, type UseFormReturn } from 'react-hook-form';
import { useLocation } from 'wouter';
import type { TranslationFunctions } from '../../../../i18n/i18n-types';
import type { Language } from '../../../shared/api';
import { cryptoForFiat, parseAmount } from '../../../shared/amounts';
import { formatCrypto, formatFiat, formatRate } from '../../../shared/format';
import type { AmountBounds } from '../../../shared/limits';
import { orderScreenPath } from '../../../shared/order-screens';
import type { PaymentMethod } from '../../../shared/order-status';
import type { BuyFormValues } from '../../../shared/schemas/forms';
import { createOrder } from '../../api/orders';
import { createFailureText } from '../../components/failure-text';
import { formErrorText } from '../../components/form-error-text';
import { useEnvironment } from '../../environment-context';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { hapticError, showAlert } from '../../telegram/actions';
import { useQuotedOrder, type OrderAttempt, type QuotedOrder } from './use-quoted-order';

export interface BuyOrderOptions {
  readonly method: PaymentMethod;
  readonly currency: string;
  readonly bounds: AmountBounds;
  readonly debounceMs: number;
  readonly refetchFrom?: number;
  /** Bank and office show a failed creation inline; P2P alerts (spec section 8). */
  readonly errorsInline: boolean;
  /** The order screen a new order opens. */
  readonly next: 'waiting' | 'bank-requisites' | 'office-waiting';
}

export interface BuyOrder extends Pick<
  QuotedOrder,
  'rate' | 'rateUnavailable' | 'submitting' | 'openOrders'
> {
  /** Why the last order was refused, when the form says it inline. */
  readonly inlineError: string | null;
  /** Checks the form, then creates the order (the form's submit and the main button). */
  readonly onSubmit: (event?: BaseSyntheticEvent) => Promise<void>;
}

/** The text of a buy form's error key, naming the form's bounds and the network chosen. */
export function useBuyErrorText(
  control: Control<BuyFormValues>,
  options: Pick<BuyOrderOptions, 'bounds' | 'currency'>,
): (key: string | undefined) => string | null {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const network = useWatch({ control, name: 'network' });
  return (key) =>
    formErrorText(key, LL, {
      language,
      bounds: options.bounds,
      currency: options.currency,
      network,
    });
}

export function useBuyOrder(
  form: UseFormReturn<BuyFormValues>,
  options: BuyOrderOptions,
): BuyOrder {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const { inTelegram } = useEnvironment();
  const [, navigate] = useLocation();
  const [inlineError, setInlineError] = useState<string | null>(null);
  const errorText = useBuyErrorText(form.control, options);
  const [fiatAmount, cryptoCurrency] = useWatch({
    control: form.control,
    name: ['fiatAmount', 'cryptoCurrency'],
  });
  const { rate, rateUnavailable, submitting, openOrders, submit } = useQuotedOrder(
    {
      currency: options.currency,
      operation: 'BUY',
      cryptoCurrency,
      paymentMethod: options.method,
      amount: parseAmount(fiatAmount),
      debounceMs: options.debounceMs,
      ...(options.refetchFrom === undefined ? {} : { refetchFrom: options.refetchFrom }),
    },
    {
      onCreated: (orderId) => navigate(orderScreenPath(orderId, options.next)),
      onFailure: async (error) => {
        hapticError();
        const text = createFailureText(error, LL, language);
        if (options.errorsInline) setInlineError(text);
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

  const onSubmit = form.handleSubmit(
    async (data) => {
      setInlineError(null);
      await submit(buyAttempt(data, options, LL, language));
    },
    async (invalid) => {
      hapticError();
      const first = errorText(
        invalid.fiatAmount?.message ?? invalid.cityId?.message ?? invalid.walletAddress?.message,
      );
      if (first !== null && !options.errorsInline) await showAlert(first, inTelegram);
    },
  );

  return { rate, rateUnavailable, submitting, openOrders, inlineError, onSubmit };
}

/** The order a valid form asks for, and what is asked if the server's rate has moved. */
function buyAttempt(
  data: BuyFormValues,
  options: BuyOrderOptions,
  LL: TranslationFunctions,
  language: Language,
): OrderAttempt {
  const total = parseAmount(data.fiatAmount) ?? 0;
  return {
    create: async (agreed) => {
      const { orderId } = await createOrder({
        type: 'BUY',
        amount: parseAmount(cryptoForFiat(total, agreed)) ?? 0,
        currency: options.currency,
        cryptoCurrency: data.cryptoCurrency,
        network: data.network,
        rate: agreed,
        totalRub: total,
        walletAddress: data.walletAddress.trim(),
        paymentMethod: options.method,
        ...(options.method === 'OFFICE' ? { cityId: data.cityId } : {}),
      } as Parameters<typeof createOrder>[0]);
      return orderId;
    },
    confirmNewRate: (newRate) =>
      LL.buyForm.rateChangedBody({
        rate: formatRate(newRate, options.currency, language),
        total: formatFiat(total, options.currency, language),
        amount: formatCrypto(
          parseAmount(cryptoForFiat(total, newRate)) ?? 0,
          data.cryptoCurrency,
          language,
        ),
      }),
  };
}
