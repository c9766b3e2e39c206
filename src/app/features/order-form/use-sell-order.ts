/**
 * The data side of the P2P sell form: the live sell rate for the roubles the crypto amount comes
 * to, the roubles kept in step with the crypto amount, and the submit that creates the order (a
 * new rate from the server put to the customer to confirm, any refusal said in an alert).
 */
import { useEffect, type BaseSyntheticEvent } from 'react';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import { useLocation } from 'wouter';
import type { TranslationFunctions } from '../../../../i18n/i18n-types';
import type { Language } from '../../../shared/api';
import { fiatForCrypto, parseAmount } from '../../../shared/amounts';
import { cardDigits } from '../../../shared/cards';
import { formatCrypto, formatFiat, formatRate } from '../../../shared/format';
import { P2P_RATE_DEBOUNCE_MS } from '../../../shared/limits';
import { orderScreenPath } from '../../../shared/order-screens';
import type { SellFormValues } from '../../../shared/schemas/forms';
import { createOrder } from '../../api/orders';
import { createFailureText } from '../../components/failure-text';
import { useEnvironment } from '../../environment-context';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { hapticError, showAlert } from '../../telegram/actions';
import { useQuotedOrder, type OrderAttempt, type QuotedOrder } from './use-quoted-order';

export interface SellOrder extends Pick<
  QuotedOrder,
  'rate' | 'rateUnavailable' | 'submitting' | 'openOrders'
> {
  /** Checks the form, then creates the order (the form's submit and the main button). */
  readonly onSubmit: (event?: BaseSyntheticEvent) => Promise<void>;
}

export function useSellOrder(
  form: UseFormReturn<SellFormValues>,
  errorText: (key: string | undefined) => string | null,
): SellOrder {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const { inTelegram } = useEnvironment();
  const [, navigate] = useLocation();
  const [fiatAmount, cryptoCurrency] = useWatch({
    control: form.control,
    name: ['fiatAmount', 'cryptoCurrency'],
  });
  const { rate, rateUnavailable, submitting, openOrders, submit } = useQuotedOrder(
    {
      currency: 'RUB',
      operation: 'SELL',
      cryptoCurrency,
      paymentMethod: 'P2P',
      amount: parseAmount(fiatAmount),
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

  const onSubmit = form.handleSubmit(
    async (data) => {
      await submit(sellAttempt(data, LL, language));
    },
    async (invalid) => {
      hapticError();
      const first = errorText(
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

  return { rate, rateUnavailable, submitting, openOrders, onSubmit };
}

/** The order a valid form asks for, and what is asked if the server's rate has moved. */
function sellAttempt(
  data: SellFormValues,
  LL: TranslationFunctions,
  language: Language,
): OrderAttempt {
  const amount = parseAmount(data.cryptoAmount) ?? 0;
  const totalAt = (agreed: number) => parseAmount(fiatForCrypto(amount, agreed)) ?? 0;
  return {
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
  };
}
