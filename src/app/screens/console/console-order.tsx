/**
 * `/console/orders/{id}`: one order as an operator acts on it: its status, flags and
 * the countdown that matters, the amounts, the customer (with a link to write to them in
 * Telegram, how many orders they have had, when first seen), what was given and sent (requisites,
 * hashes on the explorer, the payout card of a sell), the receipts (images inline, PDFs opened),
 * the audit trail, and the actions of its status; below it (beside it on a wide screen) the
 * order's chat with the customer. Asked again every 5 seconds, and after each action, so a
 * change by another operator shows.
 */
import { Button, Cell, List, Placeholder, Section } from '@telegram-apps/telegram-ui';
import { useEffect, type ReactNode } from 'react';
import type { CardRequisites, BankRequisites, WalletRequisites } from '../../../shared/api';
import type { TranslationFunctions } from '../../../../i18n/i18n-types';
import {
  type OperatorEvent,
  type OperatorMessage,
  type OperatorOrderResponse,
  type OperatorReceipt,
} from '../../../shared/operator-api';
import { STATUS_LABEL_KEYS, isFinalStatus } from '../../../shared/order-status';
import { orderNumber } from '../../../shared/support-link';
import { ApiError } from '../../api/client';
import {
  fetchOperatorAppeal,
  fetchOperatorOrder,
  fetchReceiptFile,
} from '../../features/console/console-api';
import { CopyRow } from '../../components/copy-row';
import { failureText } from '../../components/failure-text';
import { Loading } from '../../components/loading';
import { OrderAmounts } from '../../features/order/order-amounts';
import { Screen } from '../../components/screen';
import { ElectronicReceiptRow, TxHashRow } from '../../features/order/tx-hash-row';
import { chainCheckText } from '../../features/order/chain-check-row';
import { useEnvironment } from '../../environment-context';
import { clockOffset } from '../../hooks/use-countdown';
import { useDateTime } from '../../hooks/use-date-time';
import { useDownloadedFile } from '../../hooks/use-downloaded-file';
import { useFetchState } from '../../hooks/use-fetch-state';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { openSupportLink } from '../../telegram/actions';
import { ConsoleActions } from '../../features/console/console-actions';
import { ConsoleAppeal } from '../../features/console/console-appeal';
import { ConsoleChat, actorName } from '../../features/console/console-chat';
import { clearDrafts } from '../../features/console/console-draft';
import { customerName } from '../../features/console/console-order-row';
import { deadlineText, useServerNow } from '../../features/console/console-time';
import { useConsoleAction } from '../../features/console/use-console-action';

/** How often the open order is asked again. */
const ORDER_POLL_MS = 5_000;

/** A receipt: an image shown inline, anything else (a PDF) opened on a tap. */
function Receipt({
  orderId,
  receipt,
  date,
}: {
  readonly orderId: string;
  readonly receipt: OperatorReceipt;
  readonly date: (iso: string) => string;
}) {
  const { LL } = useI18nContext();
  const image = receipt.mimeType.startsWith('image/');
  const url = useDownloadedFile(`${orderId}/${receipt.id}`, () =>
    fetchReceiptFile(orderId, receipt.id),
  );
  return (
    <div className="console-receipt" data-receipt={receipt.id}>
      <Cell
        multiline
        subhead={receipt.fileName}
        description={
          receipt.alsoOn.length === 0
            ? undefined
            : `${LL.console.flags.reusedReceipt()}: ${receipt.alsoOn.map((id) => `№${orderNumber(id)}`).join(', ')}`
        }
        after={
          !image && url !== undefined ? (
            <Button size="s" mode="bezeled" onClick={() => window.open(url, '_blank', 'noopener')}>
              PDF
            </Button>
          ) : undefined
        }
      >
        {date(receipt.uploadedAt)}
      </Cell>
      {image && url !== undefined && (
        <img className="console-receipt__image" src={url} alt={receipt.fileName} />
      )}
    </div>
  );
}

function Requisites({ view }: { readonly view: OperatorOrderResponse }) {
  const { LL } = useI18nContext();
  const { requisites, paymentMethod, type } = view.order;
  if (requisites === null) return null;
  if (type === 'SELL' || paymentMethod === 'OFFICE') {
    return (
      <CopyRow
        label={LL.sendCrypto.depositAddress()}
        value={(requisites as WalletRequisites).walletAddress}
      />
    );
  }
  if (paymentMethod === 'BANK_ACCOUNT') {
    const bank = requisites as BankRequisites;
    return (
      <CopyRow
        label={LL.bankRequisites.accountNumber()}
        value={`${bank.recipientName} · ${bank.accountNumber}`}
      />
    );
  }
  const card = requisites as CardRequisites;
  return (
    <CopyRow
      label={LL.payment.cardNumber()}
      value={`${card.bankName} · ${card.cardNumber} · ${card.cardHolder}`}
    />
  );
}

function messageStatus(
  message: OperatorMessage,
  LL: TranslationFunctions,
  date: (iso: string) => string,
): string {
  return message.status === 'sent'
    ? LL.console.messageStatus.sent({ date: date(message.sentAt ?? message.createdAt) })
    : LL.console.messageStatus[message.status]();
}

/**
 * The bot's messages about the order (the outbox), as their recipients read them, and where each
 * stands; in demo mode, what would have been sent.
 */
function Messages({
  view,
  date,
}: {
  readonly view: OperatorOrderResponse;
  readonly date: (iso: string) => string;
}) {
  const { LL } = useI18nContext();
  const { demo } = useEnvironment();
  if (view.messages.length === 0) return null;
  return (
    <Section
      header={LL.console.messages()}
      footer={demo ? LL.console.messagesDemo() : undefined}
      data-testid="console-messages"
    >
      {view.messages.map((message) => (
        <Cell
          key={message.id}
          multiline
          data-status={message.status}
          subhead={`${LL.console.messageTo[message.to]()} · ${messageStatus(message, LL, date)}`}
          description={
            [
              message.buttons.length > 0
                ? LL.console.messageButtons({
                    labels: message.buttons.map((button) => button.text).join(', '),
                  })
                : null,
              message.status === 'sent' ? null : message.lastError,
            ]
              .filter((line) => line !== null)
              .join('\n') || undefined
          }
        >
          <span className="console-message-text">
            {message.text === '' ? LL.console.messageUnrendered() : message.text}
          </span>
        </Cell>
      ))}
    </Section>
  );
}

function OrderView({
  view,
  now,
  appeal,
  actions,
}: {
  readonly view: OperatorOrderResponse;
  readonly now: number;
  /** The order's appeal, when one was opened: above the actions it is decided by. */
  readonly appeal: ReactNode;
  /** The actions of its status, shown right under what the order is. */
  readonly actions: ReactNode;
}) {
  const { LL } = useI18nContext();
  const date = useDateTime();
  const { order } = view;
  return (
    <List>
      <OrderState view={view} now={now} date={date} />
      <OrderAmounts order={order} />
      {appeal}
      {actions}
      <Customer customer={view.customer} date={date} />
      <GivenAndSent view={view} />
      {view.payoutCard !== null && <PayoutCard card={view.payoutCard} />}
      {view.receipts.length > 0 && (
        <Section header={LL.console.receipts()}>
          {view.receipts.map((receipt) => (
            <Receipt key={receipt.id} orderId={order.id} receipt={receipt} date={date} />
          ))}
        </Section>
      )}
      <Events events={view.events} date={date} />
      <Messages view={view} date={date} />
    </List>
  );
}

/** Where the order stands: its status, when it ended, the deadline that matters, its flags. */
function OrderState({
  view,
  now,
  date,
}: {
  readonly view: OperatorOrderResponse;
  readonly now: number;
  readonly date: (iso: string) => string;
}) {
  const { LL } = useI18nContext();
  const { order } = view;
  const deadline = deadlineText(view.deadline, now, LL);
  return (
    <Section>
      <Cell subhead={LL.details.status()} data-testid="console-status" data-status={order.status}>
        {LL.statusLabels[STATUS_LABEL_KEYS[order.status]]()}
      </Cell>
      {view.endedAt !== null && (
        <Cell subhead={LL.console.ended()} data-testid="console-ended">
          {date(view.endedAt)}
        </Cell>
      )}
      {deadline !== null && (
        <Cell
          subhead={LL.console.deadline()}
          data-testid="console-deadline"
          className={deadline.overdue ? 'console-deadline--overdue' : undefined}
        >
          {deadline.text}
        </Cell>
      )}
      {view.flags.map((flag) => (
        <Cell key={flag} className="console-flag-cell" data-flag={flag}>
          {LL.console.flags[flag]()}
        </Cell>
      ))}
      <Cell subhead={LL.details.createdAt()}>{date(order.createdAt)}</Cell>
    </Section>
  );
}

/** Who the customer is, how many orders they have had and since when; a way to write to them. */
function Customer({
  customer,
  date,
}: {
  readonly customer: OperatorOrderResponse['customer'];
  readonly date: (iso: string) => string;
}) {
  const { LL } = useI18nContext();
  const { inTelegram } = useEnvironment();
  return (
    <Section header={LL.console.customer()}>
      <Cell
        multiline
        subtitle={`${LL.console.orderCount({ count: customer.orderCount })} · ${LL.console.firstSeen({ date: date(customer.firstSeenAt) })}`}
        data-testid="console-customer"
      >
        {customerName(customer)}
      </Cell>
      {customer.username !== null && (
        <Cell
          onClick={() => openSupportLink(`https://t.me/${customer.username ?? ''}`, inTelegram)}
          after={<span aria-hidden="true">↗</span>}
        >
          <span className="copy-hint">{LL.console.writeTo()}</span>
        </Cell>
      )}
    </Section>
  );
}

/**
 * What was given and sent: the wallet, the requisites, the hashes with what the chain shows of
 * them, the office's instructions and reservation.
 */
function GivenAndSent({ view }: { readonly view: OperatorOrderResponse }) {
  const { LL } = useI18nContext();
  const { order } = view;
  return (
    <Section>
      {order.walletAddress !== null && (
        <CopyRow label={LL.buyForm.walletAddress()} value={order.walletAddress} />
      )}
      <Requisites view={view} />
      <TxHashRow label={LL.sendCrypto.txHash()} hash={order.txHash} network={order.network} />
      {order.type === 'SELL' && order.txHash !== null && (
        <Cell subhead={LL.console.chainCheck()} multiline data-testid="console-chain-check">
          {!view.chainChecked
            ? LL.console.chainManual()
            : order.chainCheck === null
              ? LL.console.chainClosed()
              : chainCheckText(LL, order.chainCheck)}
        </Cell>
      )}
      {order.type === 'BUY' && order.outgoingTxHash !== null && (
        <Cell subhead={LL.console.chainCheck()} multiline data-testid="console-payout-check">
          {!view.chainChecked
            ? LL.console.chainManual()
            : order.chainCheck === null
              ? LL.console.payoutUnchecked()
              : chainCheckText(LL, order.chainCheck, 'payout')}
        </Cell>
      )}
      <ElectronicReceiptRow order={order} />
      {order.officeInstructions !== null && (
        <Cell subhead={LL.officeWaiting.instructions()} multiline>
          {order.officeInstructions}
        </Cell>
      )}
      {order.reservation !== null && (
        <CopyRow
          label={LL.officeDetails.reservationCode()}
          value={order.reservation.reservationCode}
        />
      )}
    </Section>
  );
}

/** The card a sell's roubles are paid to. */
function PayoutCard({ card }: { readonly card: NonNullable<OperatorOrderResponse['payoutCard']> }) {
  const { LL } = useI18nContext();
  return (
    <Section header={LL.console.payoutCard()}>
      <CopyRow label={LL.payment.cardNumber()} value={card.cardNumber} />
      <CopyRow label={LL.payment.cardHolder()} value={card.cardHolder} />
      <CopyRow label={LL.payment.bank()} value={card.bankName} />
      {card.phone !== undefined && <CopyRow label={LL.payment.phone()} value={card.phone} />}
    </Section>
  );
}

/** One event of the audit trail: a change of status, or a message written in the order's chat. */
function eventTitle(event: OperatorEvent, LL: TranslationFunctions): string {
  const to = LL.statusLabels[STATUS_LABEL_KEYS[event.to]]();
  const what =
    event.messageId !== null
      ? LL.console.chatMessageEvent()
      : `${event.from === null ? '' : `${LL.statusLabels[STATUS_LABEL_KEYS[event.from]]()} → `}${to}`;
  return `${what} · ${actorName(event, LL)}`;
}

/** The audit trail: each change of status and each chat message, when, by whom and why. */
function Events({
  events,
  date,
}: {
  readonly events: readonly OperatorEvent[];
  readonly date: (iso: string) => string;
}) {
  const { LL } = useI18nContext();
  return (
    <Section header={LL.console.events()} data-testid="console-events">
      {events.map((event, index) => (
        <Cell
          key={index}
          multiline
          subhead={date(event.at)}
          description={event.reason ?? undefined}
        >
          {eventTitle(event, LL)}
        </Cell>
      ))}
    </Section>
  );
}

export function ConsoleOrder({ orderId }: { readonly orderId: string }) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const fetched = useFetchState(
    orderId,
    async (signal) => {
      const view = await fetchOperatorOrder(orderId, signal);
      const appeal = view.order.appeal === null ? null : await fetchOperatorAppeal(orderId, signal);
      return { view, appeal, offsetMs: clockOffset(view.order.serverTime) };
    },
    { intervalMs: ORDER_POLL_MS },
  );
  const now = useServerNow(fetched.data?.offsetMs ?? 0);
  const view = fetched.data?.view;
  const appeal = fetched.data?.appeal ?? null;
  const action = useConsoleAction(orderId, view?.order.status, fetched.reload);
  // An order that ended has no form left: what was typed for it goes.
  const ended = view !== undefined && isFinalStatus(view.order.status);
  useEffect(() => {
    if (ended) clearDrafts(orderId);
  }, [ended, orderId]);

  let body;
  if (view === undefined && fetched.error !== undefined) {
    body = (
      <Placeholder
        header={
          fetched.error instanceof ApiError && fetched.error.code === 'ORDER_NOT_FOUND'
            ? LL.errors.orderNotFound()
            : failureText(fetched.error, LL, LL.errors.generic(), language)
        }
      />
    );
  } else if (view === undefined) {
    body = <Loading />;
  } else {
    body = (
      <>
        {action.notice !== null && (
          <div
            className={
              action.notice.kind === 'done'
                ? 'warning-box console-notice--done'
                : 'warning-box warning-box--danger'
            }
            role="status"
            data-testid="console-notice"
            data-kind={action.notice.kind}
          >
            {action.notice.text}
          </div>
        )}
        <div className="console-order-layout">
          <OrderView
            view={view}
            now={now}
            appeal={
              appeal === null ? null : <ConsoleAppeal orderId={orderId} answer={appeal} now={now} />
            }
            actions={
              <ConsoleActions
                key={view.order.status}
                view={view}
                action={action}
                senior={appeal?.senior ?? false}
              />
            }
          />
          <ConsoleChat orderId={orderId} />
        </div>
      </>
    );
  }

  return (
    <Screen testId="console-order" header={{ title: LL.console.orderTitle(), back: '/console' }}>
      {body}
    </Screen>
  );
}
