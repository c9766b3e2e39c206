/**
 * What the chain says of a sell's transaction while the order waits: looked for, seen
 * with its confirmations counting up to the network's number, confirmed, or in an operator's
 * hands; and of a completed buy's payout on the done screen, until final. Nothing on a network
 * checked by hand (the answer's `chainCheck` is null there).
 */
import { Cell, Section } from '@telegram-apps/telegram-ui';
import type { ChainCheckState, ChainCheckView, OrderDetails } from '../../../shared/api';
import type { TranslationFunctions } from '../../../../i18n/i18n-types';
import { useI18nContext } from '../../i18n/language';

type Words = Readonly<
  Record<ChainCheckState, (LL: TranslationFunctions, check: ChainCheckView) => string>
>;

/** Which transaction a check follows: the seller's deposit, or the operator's payout of a buy. */
export type ChainCheckOf = 'deposit' | 'payout';

/** Each state's words: one table, read by the one component. */
const DEPOSIT_WORDS: Words = {
  looking: (LL) => LL.chainCheck.looking(),
  seen: (LL, check) =>
    LL.chainCheck.seen({ confirmations: check.confirmations, required: check.required }),
  confirmed: (LL, check) => LL.chainCheck.confirmed({ confirmations: check.confirmations }),
  reorged: (LL) => LL.chainCheck.reorged(),
  not_found: (LL) => LL.chainCheck.not_found(),
  flagged: (LL) => LL.chainCheck.flagged(),
};

/** A payout's words: the crypto is already sent; the customer watches it become final. */
const PAYOUT_WORDS: Words = {
  looking: (LL) => LL.payoutCheck.looking(),
  seen: (LL, check) =>
    LL.payoutCheck.seen({ confirmations: check.confirmations, required: check.required }),
  confirmed: (LL) => LL.payoutCheck.confirmed(),
  reorged: (LL) => LL.payoutCheck.looking(),
  not_found: (LL) => LL.payoutCheck.flagged(),
  flagged: (LL) => LL.payoutCheck.flagged(),
};

const WORDS: Readonly<Record<ChainCheckOf, Words>> = {
  deposit: DEPOSIT_WORDS,
  payout: PAYOUT_WORDS,
};

/** The words of a chain check, for the customer's screen and the console alike. */
export function chainCheckText(
  LL: TranslationFunctions,
  check: ChainCheckView,
  of: ChainCheckOf = 'deposit',
): string {
  return WORDS[of][check.state](LL, check);
}

/**
 * Whether a sell's waiting screen shows its deposit's line: every state while the order waits for
 * the chain (TX_PENDING); once it has moved on, only a confirmation by the chain, kept as what
 * moved it. A check the order left by other means (an operator confirmed by hand) is closed or
 * about to be: its last count would read as still waiting.
 */
export function showsDepositCheck(order: Pick<OrderDetails, 'status' | 'chainCheck'>): boolean {
  return order.status === 'TX_PENDING' || order.chainCheck?.state === 'confirmed';
}

export function ChainCheckRow({
  check,
  of = 'deposit',
}: {
  readonly check: ChainCheckView | null;
  readonly of?: ChainCheckOf;
}) {
  const { LL } = useI18nContext();
  if (check === null) return null;
  return (
    <Section>
      <Cell multiline data-testid="chain-check" data-state={check.state} data-of={of}>
        {chainCheckText(LL, check, of)}
      </Cell>
    </Section>
  );
}
