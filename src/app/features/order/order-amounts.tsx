/**
 * The amounts of an order as its screens show them: what is paid and what is received, in the
 * tense of the order (a completed order says "You paid", "You received"; one that
 * ended without completing names the amounts without saying anything moved), and the order's
 * verification code, which every message of the exchange about it carries.
 */
import { Cell, Section } from '@telegram-apps/telegram-ui';
import type { TranslationFunctions } from '../../../../i18n/i18n-types';
import type { OrderSummary } from '../../../shared/api';
import { NETWORKS } from '../../../shared/networks';
import { orderNumber } from '../../../shared/support-link';
import { formatCrypto, formatFiat, formatRate } from '../../../shared/format';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { VerificationCodeCell } from './verification-code';

/** The labels of the side the customer gives and the side they get. */
export function amountLabels(
  order: Pick<OrderSummary, 'type' | 'status'>,
  LL: TranslationFunctions,
): { readonly give: string; readonly get: string } {
  const buy = order.type === 'BUY';
  if (order.status === 'COMPLETED') {
    return {
      give: buy ? LL.orderAmounts.youPaid() : LL.orderAmounts.youSent(),
      get: LL.orderAmounts.youGot(),
    };
  }
  if (order.status === 'CANCELLED' || order.status === 'REJECTED') {
    return buy
      ? { give: LL.details.total(), get: LL.details.amount() }
      : { give: LL.details.amount(), get: LL.details.total() };
  }
  return buy
    ? { give: LL.buyForm.youPay(), get: LL.buyForm.youGet() }
    : { give: LL.sellForm.youSend(), get: LL.sellForm.youReceive() };
}

export function OrderAmounts({
  order,
}: {
  /** With its verification code where the answer carries one (the order's own screens). */
  readonly order: OrderSummary & { readonly verificationCode?: string };
}) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const fiat = formatFiat(order.totalRub, order.currency, language);
  const crypto = `${formatCrypto(order.amount, order.cryptoCurrency, language)} · ${NETWORKS[order.network].name}`;
  const buy = order.type === 'BUY';
  const labels = amountLabels(order, LL);
  return (
    <Section header={LL.common.orderNumber({ id: orderNumber(order.id) })}>
      <Cell subhead={labels.give} data-testid="pay-amount">
        {buy ? fiat : crypto}
      </Cell>
      <Cell subhead={labels.get} data-testid="get-amount">
        {buy ? crypto : fiat}
      </Cell>
      <Cell subhead={LL.common.rate()}>
        {LL.common.rateValue({
          crypto: order.cryptoCurrency,
          rate: formatRate(order.rate, order.currency, language),
        })}
      </Cell>
      {order.verificationCode !== undefined && (
        <VerificationCodeCell code={order.verificationCode} />
      )}
    </Section>
  );
}
