/** The amounts of an order as its screens show them: what is paid and what is received. */
import { Cell, Section } from '@telegram-apps/telegram-ui';
import type { OrderSummary } from '../../shared/api';
import { NETWORKS } from '../../shared/networks';
import { formatCrypto, formatFiat, formatRate } from '../format';
import { useI18nContext, useLanguage } from '../i18n/language';

export function OrderAmounts({ order }: { readonly order: OrderSummary }) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const fiat = formatFiat(order.totalRub, order.currency, language);
  const crypto = formatCrypto(order.amount, order.cryptoCurrency, language);
  const buy = order.type === 'BUY';
  return (
    <Section header={LL.common.orderNumber({ id: order.id.slice(0, 8) })}>
      <Cell subhead={buy ? LL.buyForm.youPay() : LL.sellForm.youSend()} data-testid="pay-amount">
        {buy ? fiat : crypto}
      </Cell>
      <Cell subhead={buy ? LL.buyForm.youGet() : LL.sellForm.youReceive()} data-testid="get-amount">
        {buy ? `${crypto} · ${NETWORKS[order.network].name}` : fiat}
      </Cell>
      <Cell subhead={LL.common.rate()}>
        {LL.common.rateValue({
          crypto: order.cryptoCurrency,
          rate: formatRate(order.rate, order.currency, language),
        })}
      </Cell>
    </Section>
  );
}
