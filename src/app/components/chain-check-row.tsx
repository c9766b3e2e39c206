/**
 * What the chain says of a sell's transaction while the order waits (issue 23): looked for, seen
 * with its confirmations counting up to the network's number, confirmed, or in an operator's
 * hands; and of a completed buy's payout on the done screen, until final. Nothing on a network
 * checked by hand (the answer's `chainCheck` is null there).
 */
import { Cell, Section } from '@telegram-apps/telegram-ui';
import type { ChainCheckState, ChainCheckView } from '../../shared/api';
import type { TranslationFunctions } from '../../../i18n/i18n-types';
import { useI18nContext } from '../i18n/language';

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
  confirmed: (LL) => LL.chainCheck.confirmed(),
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
