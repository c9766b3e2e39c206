/**
 * What the chain says of a sell's transaction while the order waits (issue 23): looked for, seen
 * with its confirmations counting up to the network's number, confirmed, or in an operator's
 * hands. Nothing on a network checked by hand (the answer's `chainCheck` is null there).
 */
import { Cell, Section } from '@telegram-apps/telegram-ui';
import type { ChainCheckState, ChainCheckView } from '../../shared/api';
import type { TranslationFunctions } from '../../../i18n/i18n-types';
import { useI18nContext } from '../i18n/language';

/** Each state's words: one table, read by the one component. */
const WORDS: Readonly<
  Record<ChainCheckState, (LL: TranslationFunctions, check: ChainCheckView) => string>
> = {
  looking: (LL) => LL.chainCheck.looking(),
  seen: (LL, check) =>
    LL.chainCheck.seen({ confirmations: check.confirmations, required: check.required }),
  confirmed: (LL) => LL.chainCheck.confirmed(),
  reorged: (LL) => LL.chainCheck.reorged(),
  not_found: (LL) => LL.chainCheck.not_found(),
  flagged: (LL) => LL.chainCheck.flagged(),
};

/** The words of a chain check, for the customer's screen and the console alike. */
export function chainCheckText(LL: TranslationFunctions, check: ChainCheckView): string {
  return WORDS[check.state](LL, check);
}

export function ChainCheckRow({ check }: { readonly check: ChainCheckView | null }) {
  const { LL } = useI18nContext();
  if (check === null) return null;
  return (
    <Section>
      <Cell multiline data-testid="chain-check" data-state={check.state}>
        {chainCheckText(LL, check)}
      </Cell>
    </Section>
  );
}
