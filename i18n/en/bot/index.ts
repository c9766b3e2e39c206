import type { NamespaceBotTranslation } from '../../i18n-types';

/** The bot's messages in English. Typed: a key missing here is a type error. */
const en_bot: NamespaceBotTranslation = {
  start: {
    greeting:
      'Hello, {name}! Here you can buy and sell USDT and USDC for roubles: by card transfer, bank transfer or cash at an office. I will message you whenever something happens to your order.',
    order: 'Order #{number} opens with the button below.',
    openApp: 'Open the exchange',
    help: 'A question about an order? Write to support: {url}. Give the order number: it is in every message and in the app.',
    support: 'Contact support',
    chatId:
      "This chat's id: <code>{id}</code>. For the bot to alert operators here, start the server with OPERATOR_CHAT_ID={id}.",
  },
  buttons: {
    openOrder: 'Open the order',
    openChat: "Open the order's chat",
    openConsole: 'Open in the console',
    openQueue: 'Open the queue',
    support: 'Contact support',
  },
  customer: {
    requisitesCard:
      'Order #{number}: the payment details are ready.\nTransfer <b>{total}</b> to the card <code>{card}</code> ({bank}, {holder}) by <b>{deadline}</b> Moscow time.\nThen tap ‘I have paid’ in the app and attach the receipt.',
    requisitesBank:
      'Order #{number}: the bank details for your transfer of <b>{total}</b> are ready in the app. Pay by <b>{deadline}</b> Moscow time, then attach the payment order.',
    officeReady:
      'Order #{number}: the office is expecting you.\nReservation code: <b>{code}</b>\n{city}, {address}\nOpening hours: {hours}\nThe rate and the cash are reserved until <b>{deadline}</b> Moscow time. Give the code at the office.',
    paymentConfirmed:
      'Order #{number}: your payment of <b>{total}</b> has arrived. We are sending <b>{amount}</b> to your wallet on {network}.',
    txConfirmed:
      'Order #{number}: your transaction is confirmed. We are paying <b>{total}</b> to the card •••• {last4}.',
    completedCrypto:
      'Order #{number} is complete: <b>{amount}</b> sent to your wallet.\nTransaction: <a href="{url}">{hash}</a>',
    completedOffice: 'Order #{number} is complete: <b>{amount}</b> are yours. Thank you!',
    completedPayout: 'Order #{number} is complete: <b>{total}</b> paid to the card •••• {last4}.',
    reminderPay:
      'Order #{number}: 5 minutes left to transfer <b>{total}</b> (until {deadline} Moscow time). Already paid? Tap ‘I have paid’ in the app, or the order will be cancelled.',
    depositRequested:
      'Order #{number}: send exactly <b>{amount}</b> on {network}, in one transfer, to\n<code>{address}</code>\nby <b>{deadline}</b> Moscow time. The last digits tell us the transfer is yours: any other amount waits for an operator. Then give the transaction hash in the app.',
    reminderSend:
      'Order #{number}: 5 minutes left to send <b>{amount}</b> on {network} (until {deadline} Moscow time). Already sent? Give the transaction hash in the app.',
    appealReceived: '⚖️ Order #{number}: your appeal is received. Reason: {reason}\n\n{next}',
    appealDecided: '⚖️ Order #{number}: the appeal is decided.\n\n{decision}\n\n{outcome}',
    operatorMessage:
      '💬 Order #{number}: the exchange writes in the order’s chat.\n\n{message}\n\nThe exchange writes only in the order’s chat and in this bot, always with the order’s verification code, and never asks you to pay outside the order’s own details and amount.',
  },
  operators: {
    appealOpened:
      '⚖️ Order #{number}, {kind}: the customer opened an appeal.\nReason: {reason}\n\n{text}\n\nCustomer: {customer}\nA senior operator decides it in the console.',
    newOrder:
      '🆕 New order #{number}: {kind}\n<b>{amount}</b> for <b>{total}</b>\nCustomer: {customer}',
    receiptUploaded:
      '🧾 Order #{number}: the customer attached a receipt. Check the payment of <b>{total}</b>.\nCustomer: {customer}',
    txSubmitted:
      '🔗 Order #{number}: the customer sent <b>{amount}</b> on {network}.\nHash: <code>{hash}</code>\nCustomer: {customer}',
    flagPaidLate:
      '⚠️ Order #{number}: the customer paid, but past the deadline. The order waits for an operator’s decision.\nCustomer: {customer}',
    flagReusedReceipt:
      '⚠️ Order #{number}: the same receipt is attached to orders {others}. Check the payment.\nCustomer: {customer}',
    flagWaiting:
      '⏰ Order #{number} has waited for an operator over 10 minutes: {kind}, <b>{total}</b>.\nCustomer: {customer}',
    customerMessage:
      '💬 Order #{number}: the customer writes in the order’s chat.\n\n{message}\n\nCustomer: {customer}',
    unmatchedDeposit:
      '💰 A transfer to our deposit address on {network} that no order could take: <b>{amount}</b>\nFrom (whole, check every character): <code>{sender}</code>\nHash: <code>{hash}</code>\nAttach it to its order in the console, or settle it with the sender.',
    rateUnavailable:
      '⏸ {pair} is not quoted: too few fresh sources agree, so customers cannot order it.\n{sources}',
    rateBack: '▶️ {pair} is quoted again at {base}.\n{sources}',
    rateJump:
      '⚡️ {pair} jumped {change} from {from} to {to}: it is not quoted until an operator confirms the new rate in the console, or the sources keep agreeing on it.\n{sources}',
    rateFixEnded:
      '⏱ The fixed rate {fixed} of {pair} ended: it follows the market again, at {base}.',
    rateFixEndedUnquoted:
      '⏱ The fixed rate {fixed} of {pair} ended, and too few fresh sources agree: customers cannot order it.\n{sources}',
    rateSourceStates: {
      fresh: 'fresh',
      stale: 'stale',
      outlier: 'left out: too far from the others',
    },
    scanBehind:
      '🐢 The deposit address scan on {network} is <b>{blocks}</b> final blocks behind: deposits without a hash are seen late. Check the node (CHAIN_RPC_{network}).',
    flagChainDeposit:
      '⛓ Order #{number}: the chain check needs an operator: {problem}\nHash on {network}: <code>{hash}</code>\nCustomer: {customer}',
    chainFlags: {
      failed: 'the transaction failed.',
      wrong_token: 'it moves another token, not the official {coin} contract.',
      wrong_recipient: 'it does not pay our deposit address.',
      underpaid: 'it pays {difference} less than the order.',
      before_order: 'it was made before the order was created.',
      already_used: 'this transfer is already the deposit of another order.',
      reorged:
        'the transfer disappeared from the chain before its confirmations (a reorganised block); it is looked for again.',
      not_found: 'the transaction was not found on the chain within the lookup window.',
      unreadable:
        'the node of this network could not be read through the whole lookup window (down or refusing); the transaction is looked for again.',
      overpaid:
        'the deposit was confirmed, but pays {difference} more than the order: settle the difference.',
      payout_wrong:
        'the payout found on the chain does not pay this order as it should: check that the customer received it.',
      payout_not_found:
        'the payout was not found on the chain within the lookup window: check that it was sent.',
      payout_reorged:
        'the payout disappeared from the chain before its confirmations (a reorganised block); it is looked for again.',
      payout_unreadable:
        'the node of this network could not be read through the whole lookup window (down or refusing); the payout is looked for again.',
      wrong_amount:
        'it pays {amount}, not the order’s exact amount: the chain does not confirm it, an operator decides.',
      foreign_amount:
        'it pays {amount}, the exact amount of order {other} of another customer: the customer seems to have given a transfer that is not theirs. Order {other} waits for its deposit as usual.',
      late_deposit:
        'the order has ended, but its exact amount {amount} arrived (hash <code>{hash}</code>): the seller was late, settle it with them.',
      other_hash:
        'the order’s exact amount {amount} arrived under another hash (<code>{hash}</code>) than the customer gave: check whose transfer it is.',
      same_hash:
        'the same hash was given for order {other} too: check which order it pays before confirming either.',
    },
    kinds: {
      BUY_P2P: 'buy, card transfer',
      BUY_BANK_ACCOUNT: 'buy, bank transfer',
      BUY_OFFICE: 'buy, cash at an office',
      SELL_P2P: 'sell, paid to a card',
      SELL_BANK_ACCOUNT: 'sell, paid to an account',
      SELL_OFFICE: 'sell at an office',
    },
  },
  chat: {
    file: '📎 File: {name}',
  },
  replies: {
    landedFromCustomer:
      '✅ Your message is in the chat of order #{number}. The answer will come here and in the order’s chat in the app.',
    landedFromOperator:
      '✅ The answer is passed on to the customer in the chat of order #{number}.',
    notAboutOrder:
      '⚠️ Nothing was passed on: this message of the bot is not about an order. Reply to the bot’s message about the order, or write in the order’s chat.',
    notOperator:
      '⚠️ The answer was not passed on to the customer: only operators listed in OPERATOR_IDS can write to customers from here.',
    tooLong:
      '⚠️ The message was not passed on to the order’s chat: it is longer than {max} characters. Shorten it or split it into several.',
    refused: '⚠️ The message was not passed on to the order’s chat.\n{reason}',
  },
  verificationCode: '🔐 Order verification code: <b>{code}</b>',
  summaries: {
    appeal_opened:
      '⚖️ {shown} {{count:appeal|appeals}} opened. All of them head the console’s queue.',
    new_order: '🆕 {shown} new {{count:order|orders}}. All of them are in the console’s queue.',
    receipt_uploaded:
      '🧾 {shown} {{count:receipt|receipts}} uploaded: check the payments. All of them are in the console’s queue.',
    tx_submitted:
      '🔗 {shown} {{count:transaction|transactions}} sent by customers. All of them are in the console’s queue.',
    flag_paid_late:
      '⚠️ {shown} {{count:order|orders}} paid past the deadline {{count:waits|wait}} for an operator’s decision. All of them are in the console’s queue.',
    flag_reused_receipt:
      '⚠️ {shown} {{count:order|orders}} with a receipt also attached to another order. All of them are in the console’s queue.',
    flag_chain_deposit:
      '⛓ {shown} {{count:transfer|transfers}} checked on the chain {{count:needs|need}} an operator. All of them are in the console’s queue.',
    flag_waiting:
      '⏰ {shown} {{count:order|orders}} waiting for an operator over 10 minutes. All of them are in the console’s queue.',
    customer_message:
      '💬 {shown} {{count:message|messages}} from customers in their orders’ chats. All of them are in the console’s queue.',
    unmatched_deposit:
      '💰 {shown} {{count:transfer|transfers}} to a deposit address that no order could take. All of them are in the console’s queue.',
    scan_behind:
      '🐢 The deposit address scan is behind on {shown} {{count:network|networks}}. Check the nodes.',
    rate_unavailable:
      '⏸ {shown} {{count:pair is|pairs are}} not quoted: too few fresh sources agree.',
    rate_back: '▶️ {shown} {{count:pair is|pairs are}} quoted again.',
    rate_jump:
      '⚡️ {shown} {{count:pair|pairs}} jumped and {{count:is|are}} not quoted until confirmed in the console.',
    rate_fix_ended: '⏱ The fixed rate of {shown} {{count:pair|pairs}} ended.',
  },
};

export default en_bot;
