/**
 * Deposits without a hash that matched no single order ("Deposits without a hash":
 * "anything else is listed for operators as an unmatched deposit, with a button to attach it to
 * an order"): on a sell waiting for its crypto, those of its network and coin, each with the
 * button that attaches it after the operator has compared the two amounts; on the queue, all of
 * them, each opening the waiting sells to find the one it belongs to.
 */
import { Button, Cell, List, Section } from '@telegram-apps/telegram-ui';
import { useLocation } from 'wouter';
import type { TranslationFunctions } from '../../../../i18n/i18n-types';
import type { Language } from '../../../shared/api';
import { formatCrypto, formatCryptoExact, localeOf } from '../../../shared/format';
import { NETWORKS, explorerTxUrl } from '../../../shared/networks';
import type { IncomingDeposit } from '../../../shared/operator-api';
import { orderNumber } from '../../../shared/support-link';
import { useEnvironment } from '../../environment-context';
import type { ConsoleOrderProps } from './use-console-action';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { openExternalLink } from '../../telegram/actions';
import { CopyRow } from '../../components/copy-row';

/**
 * A hash as a row shows it: its start and end ("0x5aAe…BeAed"); copied whole. Never a sender's
 * address: an address poisoner sends dust from one that shares its start and end with a
 * customer's, so senders are shown whole.
 */
export function shortChainValue(value: string): string {
  return value.length <= 14 ? value : `${value.slice(0, 6)}…${value.slice(-4)}`;
}

/** The amount exactly as the chain moved it (up to 18 decimals), with its coin. */
function depositAmount(deposit: IncomingDeposit, language: Language): string {
  return formatCryptoExact(deposit.amount, deposit.coin, language);
}

/** When it arrived: day and time, short enough for a narrow phone. */
function seenAt(iso: string, language: Language): string {
  return new Intl.DateTimeFormat(localeOf(language), {
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(iso));
}

/** How many waiting sells it could have been when it arrived: none, or several. */
function candidatesText(deposit: IncomingDeposit, LL: TranslationFunctions): string {
  return deposit.candidates === 0
    ? LL.console.incomingNoMatch()
    : LL.console.incomingCandidates({ count: deposit.candidates });
}

/**
 * A waiting sell's unmatched deposits (those of its network and coin), each with its amount,
 * sender, time and hash, and the button that attaches it: asked first, naming the transfer's
 * amount beside the order's, then sent with the status the operator saw.
 */
export function OrderIncomingDeposits({ view, action }: ConsoleOrderProps) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const { inTelegram } = useEnvironment();
  const { order } = view;
  const orderAmount = formatCrypto(order.amount, order.cryptoCurrency, language);
  if (view.incoming.length === 0) return null;
  return (
    <List data-testid="console-incoming">
      {view.incoming.map((deposit, index) => {
        const amount = depositAmount(deposit, language);
        const ask = LL.console.attachDepositAsk({
          id: orderNumber(order.id),
          amount,
          sender: deposit.sender,
          orderAmount,
        });
        const url = explorerTxUrl(deposit.network, deposit.txHash);
        return (
          <Section
            key={deposit.txHash}
            header={index === 0 ? LL.console.incomingToAddress() : undefined}
            footer={
              index === view.incoming.length - 1
                ? LL.console.incomingOrderFooter({ amount: orderAmount })
                : undefined
            }
            data-incoming={deposit.txHash}
          >
            <Cell
              multiline
              subhead={LL.console.incomingSeen({ date: seenAt(deposit.seenAt, language) })}
              description={candidatesText(deposit, LL)}
              data-testid="incoming-amount"
            >
              {`${amount} · ${NETWORKS[deposit.network].name}`}
            </Cell>
            <CopyRow
              label={LL.console.incomingSender()}
              value={deposit.sender}
              testId="incoming-sender"
            />
            <CopyRow
              label={LL.sendCrypto.txHash()}
              value={shortChainValue(deposit.txHash)}
              copyValue={deposit.txHash}
              testId="incoming-hash"
            />
            <Cell
              data-href={url}
              onClick={() => openExternalLink(url, inTelegram)}
              after={<span aria-hidden="true">↗</span>}
            >
              <span className="copy-hint">{LL.explorer.open()}</span>
            </Cell>
            <div className="console-incoming__attach">
              <Button
                size="m"
                stretched
                loading={action.busy}
                disabled={action.busy}
                onClick={() => void action.run('attachDeposit', { txHash: deposit.txHash }, ask)}
                data-testid="attach-deposit"
              >
                {LL.console.attachDeposit()}
              </Button>
            </div>
          </Section>
        );
      })}
    </List>
  );
}

/** The search of the sells waiting for their crypto, where an unmatched deposit's order is. */
export const WAITING_SELLS_PATH = '/console/orders?status=WAITING_CRYPTO&type=SELL';

/**
 * The queue's list of every unmatched deposit, compact: amount, network, sender, when, and
 * whether it could have been several orders or none. A deposit opens the waiting sells; it is
 * attached on the order it belongs to. Nothing when there is none.
 */
export function QueueIncomingDeposits({
  deposits,
  onMore,
}: {
  readonly deposits: readonly IncomingDeposit[];
  /** Lists the next page; absent when none follows. */
  readonly onMore?: (() => void) | undefined;
}) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const [, navigate] = useLocation();
  if (deposits.length === 0) return null;
  return (
    <Section
      header={`${LL.console.incoming()} · ${deposits.length}${onMore === undefined ? '' : '+'}`}
      footer={LL.console.incomingQueueFooter()}
      data-testid="queue-incoming"
      data-count={deposits.length}
    >
      {deposits.map((deposit) => (
        <Cell
          key={deposit.txHash}
          multiline
          data-incoming={deposit.txHash}
          onClick={() => navigate(WAITING_SELLS_PATH)}
          subtitle={
            <span className="copy-value">
              {`${LL.console.incomingFrom({ sender: deposit.sender })} · ${seenAt(deposit.seenAt, language)}`}
            </span>
          }
          description={candidatesText(deposit, LL)}
          after={<span className="copy-hint">{LL.console.incomingFind()}</span>}
        >
          {`${depositAmount(deposit, language)} · ${NETWORKS[deposit.network].name}`}
        </Cell>
      ))}
      {onMore !== undefined && (
        <Cell onClick={onMore} data-testid="incoming-more">
          <span className="copy-hint">{LL.myOrders.loadMore()}</span>
        </Cell>
      )}
    </Section>
  );
}
