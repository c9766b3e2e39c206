/** A notification as Telegram shows it, rendered when sent from the facts kept with the row. */
import type { TranslationFunctions } from '../../../i18n/i18n-types';
import {
  CONSOLE_QUEUE_START_PARAM,
  CONSOLE_START_PARAM_PREFIX,
  CHAT_START_PARAM_PREFIX,
  ORDER_START_PARAM_PREFIX,
  startAppLink,
  type Language,
} from '../../shared/api';
import {
  formatCrypto,
  formatCryptoExact,
  formatFiat,
  formatNumber,
  formatRate,
  formatTime,
} from '../../shared/format';
import { fromMinor, fromUnits } from '../../shared/money';
import { explorerTxUrl, NETWORKS } from '../../shared/networks';
import {
  isAddressAlert,
  isCustomerNotice,
  isRateAlert,
  type AddressAlert,
  type RateAlert,
  type NotificationKind,
  type OperatorAlert,
} from '../../shared/notifications';
import type { NotificationRow } from '../platform/db/schema';
import { endedHeadline, moneyNote } from '../../shared/order-ended';
import { orderNumber, orderSupportLink } from '../../shared/support-link';
import { translator } from '../platform/i18n';
import type { AddressFacts, RateFacts } from '../platform/outbox';
import type { NotificationFacts } from '../orders';

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
  /** For the links that open the app; no such button without it. */
  readonly botUsername: string | undefined;
  readonly supportUrl: string;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"]/g, (c) => HTML_ESCAPES[c] ?? c);
}

function escaped<T extends Record<string, string>>(params: T): T {
  return Object.fromEntries(
    Object.entries(params).map(([key, value]) => [key, escapeHtml(value)]),
  ) as T;
}

const HTML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"' };

/** Without Telegram's HTML: for the console's view of the outbox. */
export function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot);/g, (_, name: string) => HTML_ENTITIES[name] ?? '');
}

/** An operator alert in the operators' chat's language, a flood's summary as the summary. */
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
  if (isRateAlert(row.kind)) {
    return renderRateAlert(row.kind, JSON.parse(row.payload) as RateFacts, language, options);
  }
  return renderNotification(row.kind, facts, language, options);
}

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
            amount: formatCryptoExact(facts.amount ?? '0', facts.coin ?? '', language),
            sender: facts.sender ?? '',
            hash: facts.txHash ?? '',
          }),
        )
      : LL.bot.operators.scanBehind(
          escaped({ network, blocks: formatNumber(facts.lagBlocks ?? 0, language) }),
        );
  return { text, buttons: queueButtons(LL, options) };
}

export function renderRateAlert(
  kind: RateAlert,
  facts: RateFacts,
  language: Language,
  options: RenderOptions,
): RenderedMessage {
  const LL = translator(language);
  const pair = `${facts.crypto}/${facts.fiat}`;
  const sources = escapeHtml(
    facts.sources
      .map((s) => {
        const state = LL.bot.operators.rateSourceStates[s.state]();
        return `${s.source}: ${formatNumber(s.price, language, 4)} (${state})`;
      })
      .join('\n'),
  );
  const rate = (units: number | undefined) =>
    escapeHtml(formatRate(units ?? 0, facts.fiat, language));
  const texts: Readonly<Record<RateAlert, () => string>> = {
    rate_unavailable: () => LL.bot.operators.rateUnavailable({ pair, sources }),
    rate_back: () => LL.bot.operators.rateBack({ pair, sources, base: rate(facts.base) }),
    rate_jump: () =>
      LL.bot.operators.rateJump({
        pair,
        sources,
        from: rate(facts.from),
        to: rate(facts.to),
        change: signedPercent(facts.from ?? 0, facts.to ?? 0, language),
      }),
    rate_fix_ended: () =>
      facts.base === undefined
        ? LL.bot.operators.rateFixEndedUnquoted({ pair, sources, fixed: rate(facts.fixed) })
        : LL.bot.operators.rateFixEnded({ pair, fixed: rate(facts.fixed), base: rate(facts.base) }),
  };
  const text = texts[kind]();
  return { text, buttons: queueButtons(LL, options) };
}

/** How far `to` moved from `from`, as operators read it: "+3.4 %", "−5.1 %". */
function signedPercent(from: number, to: number, language: Language): string {
  const percent = from === 0 ? 0 : ((to - from) / from) * 100;
  return `${percent > 0 ? '+' : percent < 0 ? '−' : ''}${formatNumber(Math.abs(percent), language, 1)} %`;
}

function queueButtons(LL: TranslationFunctions, options: RenderOptions): MessageButton[] {
  const bot = options.botUsername;
  return bot === undefined
    ? []
    : [{ text: LL.bot.buttons.openQueue(), url: startAppLink(bot, CONSOLE_QUEUE_START_PARAM) }];
}

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

type OrderMessageKind = Exclude<NotificationKind, AddressAlert | RateAlert>;

interface MessageContext {
  readonly LL: TranslationFunctions;
  readonly facts: NotificationFacts;
  readonly language: Language;
  readonly common: {
    readonly number: string;
    readonly total: string;
    readonly amount: string;
    readonly network: string;
    readonly deadline: string;
  };
}

function forOperators({ common, facts, LL }: MessageContext) {
  return { ...common, ...operatorFacts(facts, LL) };
}

function otherOrders(facts: NotificationFacts): string {
  return (facts.otherOrderIds ?? []).map((id) => `#${orderNumber(id)}`).join(', ');
}

function chainProblem({ LL, facts, language }: MessageContext): string {
  return LL.bot.operators.chainFlags[facts.chainFlag ?? 'not_found']({
    difference:
      facts.chainDifference === undefined
        ? ''
        : formatCryptoExact(facts.chainDifference, facts.crypto, language),
    amount:
      facts.chainAmount === undefined
        ? ''
        : formatCryptoExact(facts.chainAmount, facts.crypto, language),
    coin: facts.crypto,
    other: otherOrders(facts),
    hash: facts.chainHash ?? '',
  });
}

function chatMessage({ LL, facts }: MessageContext): { readonly message: string } {
  const lines = [
    facts.messageText ?? '',
    facts.messageFile === undefined ? '' : LL.bot.chat.file({ name: facts.messageFile }),
  ];
  return { message: lines.filter((line) => line !== '').join('\n') };
}

function completedText({ LL, facts, common }: MessageContext): string {
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
}

const MESSAGE_TEXTS: Readonly<Record<OrderMessageKind, (m: MessageContext) => string>> = {
  requisites_ready: ({ LL, facts, common }) =>
    facts.card === null
      ? LL.bot.customer.requisitesBank(escaped(common))
      : LL.bot.customer.requisitesCard(
          escaped({
            ...common,
            card: facts.card.cardNumber,
            bank: facts.card.bankName,
            holder: facts.card.cardHolder,
          }),
        ),
  office_ready: ({ LL, facts, common, language }) =>
    LL.bot.customer.officeReady(
      escaped({
        ...common,
        code: facts.reservationCode ?? '',
        city: facts.office?.city[language] ?? '',
        address: facts.office?.address[language] ?? '',
        hours: facts.office?.hours[language] ?? '',
      }),
    ),
  payment_confirmed: ({ LL, common }) => LL.bot.customer.paymentConfirmed(escaped(common)),
  tx_confirmed: ({ LL, facts, common }) =>
    LL.bot.customer.txConfirmed(escaped({ ...common, last4: facts.payoutCardLast4 ?? '' })),
  completed: completedText,
  rejected: ({ LL, facts }) => escapeHtml(endedText('REJECTED', facts, LL)),
  cancelled: ({ LL, facts }) => escapeHtml(endedText('CANCELLED', facts, LL)),
  deposit_requested: ({ LL, facts, common }) =>
    LL.bot.customer.depositRequested(escaped({ ...common, address: facts.depositAddress ?? '' })),
  payment_reminder: ({ LL, facts, common }) =>
    facts.type === 'SELL'
      ? LL.bot.customer.reminderSend(escaped(common))
      : LL.bot.customer.reminderPay(escaped(common)),
  new_order: (m) => m.LL.bot.operators.newOrder(escaped(forOperators(m))),
  receipt_uploaded: (m) => m.LL.bot.operators.receiptUploaded(escaped(forOperators(m))),
  tx_submitted: (m) =>
    m.LL.bot.operators.txSubmitted(escaped({ ...forOperators(m), hash: m.facts.txHash ?? '' })),
  flag_paid_late: (m) => m.LL.bot.operators.flagPaidLate(escaped(forOperators(m))),
  flag_reused_receipt: (m) =>
    m.LL.bot.operators.flagReusedReceipt(
      escaped({ ...forOperators(m), others: otherOrders(m.facts) }),
    ),
  flag_waiting: (m) => m.LL.bot.operators.flagWaiting(escaped(forOperators(m))),
  operator_message: (m) =>
    m.LL.bot.customer.operatorMessage(escaped({ ...m.common, ...chatMessage(m) })),
  customer_message: (m) =>
    m.LL.bot.operators.customerMessage(escaped({ ...forOperators(m), ...chatMessage(m) })),
  appeal_opened: (m) =>
    m.LL.bot.operators.appealOpened(
      escaped({
        ...forOperators(m),
        reason: m.LL.appeals.reasons[m.facts.appealReason ?? 'other'](),
        text: m.facts.appealText ?? '',
      }),
    ),
  appeal_received: ({ LL, facts, common }) =>
    LL.bot.customer.appealReceived(
      escaped({
        ...common,
        reason: LL.appeals.reasons[facts.appealReason ?? 'other'](),
        next: LL.appeals.underReviewEndedText(),
      }),
    ),
  appeal_decided: ({ LL, facts, common }) =>
    LL.bot.customer.appealDecided(
      escaped({
        ...common,
        decision: LL.appeals.decisions[facts.appealDecision ?? 'uphold'](),
        outcome: facts.appealOutcome ?? '',
      }),
    ),
  flag_chain_deposit: (m) =>
    m.LL.bot.operators.flagChainDeposit(
      escaped({
        ...forOperators(m),
        hash: m.facts.txHash ?? m.facts.outgoingTxHash ?? '',
        problem: chainProblem(m),
      }),
    ),
};

export function renderNotification(
  kind: OrderMessageKind,
  facts: NotificationFacts,
  language: Language,
  options: RenderOptions,
): RenderedMessage {
  const LL = translator(language);
  const common = {
    number: orderNumber(facts.orderId),
    total: formatFiat(fromMinor(facts.totalMinor), facts.currency, language),
    amount: formatCrypto(fromUnits(facts.amountUnits), facts.crypto, language),
    network: NETWORKS[facts.network].name,
    deadline:
      facts.deadline === null
        ? ''
        : formatTime(new Date(facts.deadline).toISOString(), language, MESSAGE_TIME_ZONE),
  };
  const text = MESSAGE_TEXTS[kind]({ LL, facts, language, common });
  return {
    text: withVerificationCode(text, facts.verificationCode, LL),
    buttons: buttons(kind, facts, LL, options),
  };
}

/** Every message about an order ends with its code, so an impostor can be told apart. */
export function withVerificationCode(
  text: string,
  code: string | undefined,
  LL: TranslationFunctions,
): string {
  if (code === undefined) return text;
  return `${text}\n\n${LL.bot.verificationCode({ code: escapeHtml(code) })}`;
}

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
    // A rejection deciding an appeal is told by the decision's own message.
    appeal: null,
  };
  return [endedHeadline(ended, LL) ?? LL.errors.orderCancelled(), moneyNote(ended, LL)].join(
    '\n\n',
  );
}

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
  // An operator's message opens the chat it was written in, to answer there; any other, the order.
  const [label, prefix] =
    kind === 'operator_message'
      ? [LL.bot.buttons.openChat(), CHAT_START_PARAM_PREFIX]
      : [LL.bot.buttons.openOrder(), ORDER_START_PARAM_PREFIX];
  const open =
    bot === undefined ? [] : [{ text: label, url: startAppLink(bot, `${prefix}${facts.orderId}`) }];
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
