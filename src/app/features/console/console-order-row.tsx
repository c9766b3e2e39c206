/**
 * One order as the console lists it: direction and method, the amounts, the customer, its age,
 * the countdown that matters (red once overdue), its flags and the customer's chat messages no
 * operator has read. Opens the order.
 */
import { Cell } from '@telegram-apps/telegram-ui';
import { useLocation } from 'wouter';
import type { OperatorOrderRow } from '../../../shared/operator-api';
import { NETWORKS } from '../../../shared/networks';
import { orderNumber } from '../../../shared/support-link';
import { formatCrypto, formatFiat } from '../../../shared/format';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { ageText, deadlineText } from './console-time';

/** The console's route of an order. */
export const consoleOrderPath = (id: string) => `/console/orders/${encodeURIComponent(id)}`;

/** How operators name a customer: the name, and the @username when there is one. */
export function customerName(customer: OperatorOrderRow['customer']): string {
  const name = [customer.firstName, customer.lastName].filter((p) => p !== null).join(' ');
  return customer.username === null ? name : `${name} · @${customer.username}`;
}

export function ConsoleOrderRow({
  order,
  now,
}: {
  readonly order: OperatorOrderRow;
  readonly now: number;
}) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const [, navigate] = useLocation();
  const deadline = deadlineText(order.deadline, now, LL);
  const kind = `${order.type === 'BUY' ? LL.myOrders.buy() : LL.myOrders.sell()} · ${LL.paymentMethods[order.paymentMethod]()}`;
  return (
    <Cell
      multiline
      data-console-order={order.id}
      onClick={() => navigate(consoleOrderPath(order.id))}
      subhead={`№${orderNumber(order.id)} · ${kind}`}
      subtitle={`${customerName(order.customer)} · ${ageText(order.createdAt, now, LL)}`}
      description={
        order.flags.length === 0 && order.unreadMessages === 0 ? undefined : (
          <>
            {order.unreadMessages > 0 && (
              <span className="console-unread" data-testid="row-unread">
                {LL.console.unread({ count: order.unreadMessages })}
              </span>
            )}
            {order.flags.length > 0 && (
              <span className="console-flags">
                {order.flags.map((flag) => (
                  <span key={flag} className="console-flag" data-flag={flag}>
                    {LL.console.flags[flag]()}
                  </span>
                ))}
              </span>
            )}
          </>
        )
      }
      after={
        deadline === null ? undefined : (
          <span
            className={
              deadline.overdue ? 'console-deadline console-deadline--overdue' : 'console-deadline'
            }
            data-testid="row-deadline"
          >
            {deadline.text}
          </span>
        )
      }
    >
      {`${formatCrypto(order.amount, order.cryptoCurrency, language)} · ${NETWORKS[order.network].name} · ${formatFiat(order.totalRub, order.currency, language)}`}
    </Cell>
  );
}
