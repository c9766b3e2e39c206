/** The orders module's door: what the other modules may use of it. */
export { type AppealRow, findAppeal, toAppealView } from './appeal-view';
export { consoleCalls } from './console-calls';
export { depositAddressFor } from './create';
export { type AmountKey } from './deposit-amounts';
export { type NotificationFacts } from './order-facts';
export { alertOperators, flagForOperators, flagTogether, notifyCustomer } from './order-messages';
export { orderRow } from './order-row';
export { flagOrder, markChatRead, takeOrder, touchOrder } from './order-store';
export { type StoredReservation, rowDeadline, toOrderDetails, toOrderSummary } from './order-view';
export { ordersModule } from './orders-module';
export { readPayoutCard } from './payout-card';
export { type QuoteRequest } from './pricing';
export { STATUS_ANSWERS_KEPT, StatusAnswers } from './status/status-answers';
export {
  type OrderActionService,
  type TransitionResult,
  answerAction,
  applyTransition,
  applyTransitionIn,
} from './transition';
export { unreadMessages } from './unread';
