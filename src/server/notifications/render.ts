/**
 * A notification as Telegram shows it: the text in the recipient's language (Telegram's HTML,
 * every value escaped) and its buttons. Rendered when the row is sent (or shown in the console),
 * from the facts kept with it. The ended-order wording is the app's own (src/shared/order-ended.ts).
 */
import type { TranslationFunctions } from '../../../i18n/i18n-types';
import {
  CONSOLE_QUEUE_START_PARAM,
  CONSOLE_START_PARAM_PREFIX,
  ORDER_START_PARAM_PREFIX,
  startAppLink,
  type Language,
} from '../../shared/api';
import {
  formatCrypto,
  formatDecimalText,
  formatFiat,
  formatNumber,
  formatTime,
} from '../../shared/format';
import { fromMinor, fromUnits } from '../../shared/money';
import { explorerTxUrl, NETWORKS } from '../../shared/networks';
import {
  isAddressAlert,
  isCustomerNotice,
  type AddressAlert,
  type NotificationKind,
  type OperatorAlert,
} from '../../shared/notifications';
import type { NotificationRow } from '../platform/db/schema';
import { endedHeadline, moneyNote } from '../../shared/order-ended';
import { orderNumber, orderSupportLink } from '../../shared/support-link';
import { translator } from '../platform/i18n';
import type { AddressFacts, NotificationFacts } from './facts';

/** Deadlines are written in the service's time, said as "Moscow time" in the texts. */
export const MESSAGE_TIME_ZONE = 'Europe/Moscow';

export interface MessageButton {
  readonly text: string;
  readonly url: string;
}

export interface RenderedMessage {
  readonly text: string;
  readonly buttons: readonly MessageButton[];
}

export interface RenderOptions {
  /** The bot's username, for the links that open the app; no such button without it. */
  readonly botUsername: string | undefined;
  readonly supportUrl: string;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
};

/** A value made safe for Telegram's HTML. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"]/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** Every value of a text's parameters, escaped. */
function escaped<T extends Record<string, string>>(params: T): T {
  return Object.fromEntries(
    Object.entries(params).map(([key, value]) => [key, escapeHtml(value)]),
  ) as T;
}

const HTML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"' };

/** A message's text as read, without Telegram's HTML: for the console's view of the outbox. */
export function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot);/g, (_, name: string) => HTML_ENTITIES[name] ?? '');
}

/**
 * A stored row as its recipient reads it (the worker sends this, the console shows it): an
 * operator alert in the operators' chat's language, a flood's summary as the summary.
 */
export function renderStored(
  row: Pick<NotificationRow, 'kind' | 'payload' | 'language'>,
  operatorChatLanguage: Language,
  options: RenderOptions,
): RenderedMessage {
  const facts = JSON.parse(row.payload) as NotificationFacts;
  const language = row.language ?? operatorChatLanguage;
  if (facts.summaryCount !== undefined && !isCustomerNotice(row.kind)) {
    return renderSummary(row.kind, facts.summaryCount, language, options);
  }
  if (isAddressAlert(row.kind)) {
    return renderAddressAlert(row.kind, JSON.parse(row.payload) as AddressFacts, language, options);
  }
  return renderNotification(row.kind, facts, language, options);
}

/** An alert about a deposit address, with a button to the console's queue that lists them. */
export function renderAddressAlert(
  kind: AddressAlert,
  facts: AddressFacts,
  language: Language,
  options: RenderOptions,
): RenderedMessage {
  const LL = translator(language);
  const network = NETWORKS[facts.network].name;
  const text =
    kind === 'unmatched_deposit'
      ? LL.bot.operators.unmatchedDeposit(
          escaped({
            network,
            amount: formatDecimalText(facts.amount ?? '0', language),
            coin: facts.coin ?? '',
            sender: facts.sender ?? '',
            hash: facts.txHash ?? '',
          }),
        )
      : LL.bot.operators.scanBehind(
          escaped({ network, blocks: formatNumber(facts.lagBlocks ?? 0, language) }),
        );
  return { text, buttons: queueButtons(LL, options) };
}

/** The button that opens the console's queue, where every alert of the operators' chat leads. */
function queueButtons(LL: TranslationFunctions, options: RenderOptions): MessageButton[] {
  const bot = options.botUsername;
  return bot === undefined
    ? []
    : [{ text: LL.bot.buttons.openQueue(), url: startAppLink(bot, CONSOLE_QUEUE_START_PARAM) }];
}

/** A flood's summary in the operators' chat: how many of one kind, a button to the console's queue. */
export function renderSummary(
  kind: OperatorAlert,
  count: number,
  language: Language,
  options: RenderOptions,
): RenderedMessage {
  const LL = translator(language);
  const text = LL.bot.summaries[kind]({ count, shown: escapeHtml(formatNumber(count, language)) });
  return { text, buttons: queueButtons(LL, options) };
}

export function renderNotification(
  kind: Exclude<NotificationKind, AddressAlert>,
  facts: NotificationFacts,
  language: Language,
  options: RenderOptions,
): RenderedMessage {
  const LL = translator(language);
  const number = orderNumber(facts.orderId);
  const total = formatFiat(fromMinor(facts.totalMinor), facts.currency, language);
  const amount = formatCrypto(fromUnits(facts.amountUnits), facts.crypto, language);
  const network = NETWORKS[facts.network].name;
  const deadline =
    facts.deadline === null
      ? ''
      : formatTime(new Date(facts.deadline).toISOString(), language, MESSAGE_TIME_ZONE);
  const common = { number, total, amount, network, deadline };
  const text = (): string => {
    switch (kind) {
      case 'requisites_ready':
        return facts.card === null
          ? LL.bot.customer.requisitesBank(escaped(common))
          : LL.bot.customer.requisitesCard(
              escaped({
                ...common,
                card: facts.card.cardNumber,
                bank: facts.card.bankName,
                holder: facts.card.cardHolder,
              }),
            );
      case 'office_ready':
        return LL.bot.customer.officeReady(
          escaped({
            ...common,
            code: facts.reservationCode ?? '',
            city: facts.office?.city[language] ?? '',
            address: facts.office?.address[language] ?? '',
            hours: facts.office?.hours[language] ?? '',
          }),
        );
      case 'payment_confirmed':
        return LL.bot.customer.paymentConfirmed(escaped(common));
      case 'tx_confirmed':
        return LL.bot.customer.txConfirmed(
          escaped({ ...common, last4: facts.payoutCardLast4 ?? '' }),
        );
      case 'completed':
        if (facts.type === 'SELL') {
          return LL.bot.customer.completedPayout(
            escaped({ ...common, last4: facts.payoutCardLast4 ?? '' }),
          );
        }
        if (facts.outgoingTxHash === null) return LL.bot.customer.completedOffice(escaped(common));
        return LL.bot.customer.completedCrypto(
          escaped({
            ...common,
            hash: facts.outgoingTxHash,
            url: explorerTxUrl(facts.network, facts.outgoingTxHash),
          }),
        );
      case 'rejected':
        return escapeHtml(endedText('REJECTED', facts, LL));
      case 'cancelled':
        return escapeHtml(endedText('CANCELLED', facts, LL));
      case 'deposit_requested':
        return LL.bot.customer.depositRequested(
          escaped({ ...common, address: facts.depositAddress ?? '' }),
        );
      case 'payment_reminder':
        return facts.type === 'SELL'
          ? LL.bot.customer.reminderSend(escaped(common))
          : LL.bot.customer.reminderPay(escaped(common));
      case 'new_order':
        return LL.bot.operators.newOrder(escaped({ ...common, ...operatorFacts(facts, LL) }));
      case 'receipt_uploaded':
        return LL.bot.operators.receiptUploaded(
          escaped({ ...common, ...operatorFacts(facts, LL) }),
        );
      case 'tx_submitted':
        return LL.bot.operators.txSubmitted(
          escaped({ ...common, ...operatorFacts(facts, LL), hash: facts.txHash ?? '' }),
        );
      case 'flag_paid_late':
        return LL.bot.operators.flagPaidLate(escaped({ ...common, ...operatorFacts(facts, LL) }));
      case 'flag_reused_receipt':
        return LL.bot.operators.flagReusedReceipt(
          escaped({
            ...common,
            ...operatorFacts(facts, LL),
            others: (facts.otherOrderIds ?? []).map((id) => `#${orderNumber(id)}`).join(', '),
          }),
        );
      case 'flag_waiting':
        return LL.bot.operators.flagWaiting(escaped({ ...common, ...operatorFacts(facts, LL) }));
      case 'flag_chain_deposit':
        return LL.bot.operators.flagChainDeposit(
          escaped({
            ...common,
            ...operatorFacts(facts, LL),
            // A sell's deposit hash, or a buy's payout hash (a buy has no incoming one).
            hash: facts.txHash ?? facts.outgoingTxHash ?? '',
            problem: LL.bot.operators.chainFlags[facts.chainFlag ?? 'not_found']({
              difference:
                facts.chainDifference === undefined
                  ? ''
                  : formatDecimalText(facts.chainDifference, language),
              amount:
                facts.chainAmount === undefined
                  ? ''
                  : formatDecimalText(facts.chainAmount, language),
              coin: facts.crypto,
              other: (facts.otherOrderIds ?? []).map((id) => `#${orderNumber(id)}`).join(', '),
              hash: facts.chainHash ?? '',
            }),
          }),
        );
    }
  };
  return { text: text(), buttons: buttons(kind, facts, LL, options) };
}

/** Why the order ended, then on its own paragraph what happens to the money: the app's words. */
function endedText(
  status: 'REJECTED' | 'CANCELLED',
  facts: NotificationFacts,
  LL: TranslationFunctions,
): string {
  const ended = {
    id: facts.orderId,
    type: facts.type,
    status,
    cancelReason: facts.cancelReason,
    rejectReason: facts.rejectReason,
    rejectReasonCode: facts.rejectReasonCode,
  };
  return [endedHeadline(ended, LL) ?? LL.errors.orderCancelled(), moneyNote(ended, LL)].join(
    '\n\n',
  );
}

/** What the operators' chat reads about the order and its customer. */
function operatorFacts(
  facts: NotificationFacts,
  LL: TranslationFunctions,
): { readonly kind: string; readonly customer: string } {
  const who = facts.customer;
  const customer =
    who === null
      ? ''
      : [who.name, who.username === null ? null : `@${who.username}`, `id ${who.telegramId}`]
          .filter((part) => part !== null && part !== '')
          .join(', ');
  return { kind: LL.bot.operators.kinds[`${facts.type}_${facts.method}`](), customer };
}

function buttons(
  kind: NotificationKind,
  facts: NotificationFacts,
  LL: TranslationFunctions,
  options: RenderOptions,
): MessageButton[] {
  const bot = options.botUsername;
  if (!isCustomerNotice(kind)) {
    return bot === undefined
      ? []
      : [
          {
            text: LL.bot.buttons.openConsole(),
            url: startAppLink(bot, `${CONSOLE_START_PARAM_PREFIX}${facts.orderId}`),
          },
        ];
  }
  const open =
    bot === undefined
      ? []
      : [
          {
            text: LL.bot.buttons.openOrder(),
            url: startAppLink(bot, `${ORDER_START_PARAM_PREFIX}${facts.orderId}`),
          },
        ];
  // An order that ended badly may need a person: the support chat, with the order named.
  const support =
    kind === 'rejected' || kind === 'cancelled'
      ? [
          {
            text: LL.bot.buttons.support(),
            url: orderSupportLink(options.supportUrl, facts.orderId, (id) =>
              LL.orderHelp.supportMessage({ id }),
            ),
          },
        ]
      : [];
  return [...open, ...support];
}
