/**
 * The saved wallets and cards a form offers first, each one tap away: a wallet only for the
 * selected network (src/shared/saved-details.ts, `walletsFor`), a card shown by its label and
 * its last four digits. A tap fills the form's fields; the form's own checks still run on them.
 * Nothing is shown while nothing is saved, or while the list is not known.
 */
import { Cell, Section } from '@telegram-apps/telegram-ui';
import type { ReactNode } from 'react';
import type { NetworkId } from '../../shared/networks';
import { maskCardNumber, walletsFor } from '../../shared/saved-details';
import type { SavedCard, SavedWallet } from '../../shared/schemas/saved-details';
import { useI18nContext } from '../i18n/language';
import { hapticSelection } from '../telegram/actions';

/** How many characters of an address are shown at each end of its short form. */
const ADDRESS_HEAD = 6;
const ADDRESS_TAIL = 4;

/** An address as a choice shows it: its start and its end ("TNPeea…qeL"), enough to recognise. */
export function shortAddress(address: string): string {
  return address.length <= ADDRESS_HEAD + ADDRESS_TAIL + 1
    ? address
    : `${address.slice(0, ADDRESS_HEAD)}…${address.slice(-ADDRESS_TAIL)}`;
}

/** One saved item as a choice: its label, what tells it apart, and what a tap does. */
interface Choice {
  readonly id: number;
  readonly label: string;
  readonly detail: ReactNode;
  /** The accessible name: what the tap does, with the item named. */
  readonly name: string;
  readonly pick: () => void;
}

/** A section of saved choices under `header`; nothing at all when there is none. */
function Choices({
  header,
  testId,
  choices,
}: {
  readonly header: string;
  readonly testId: string;
  readonly choices: readonly Choice[];
}) {
  if (choices.length === 0) return null;
  return (
    <Section header={header} data-testid={testId}>
      {choices.map((choice) => (
        <Cell
          key={choice.id}
          Component="button"
          type="button"
          className="saved-choice"
          data-saved-choice={choice.id}
          aria-label={choice.name}
          subtitle={choice.detail}
          onClick={() => {
            hapticSelection();
            choice.pick();
          }}
        >
          {/* The kit sets the label and the detail in blocks with no space between them: without
              one the button's text reads "My Base0x5aAe…", which its name does not contain. */}
          {choice.label}{' '}
        </Cell>
      ))}
    </Section>
  );
}

export function SavedWalletChoices({
  network,
  wallets,
  onPick,
}: {
  readonly network: NetworkId;
  readonly wallets: readonly SavedWallet[] | undefined;
  readonly onPick: (address: string) => void;
}) {
  const { LL } = useI18nContext();
  const choices = walletsFor(network, wallets ?? []).map((wallet) => {
    const address = shortAddress(wallet.address);
    return {
      id: wallet.id,
      label: wallet.label,
      detail: <span className="saved-choice__code">{address}</span>,
      name: LL.savedDetails.useWallet({ label: wallet.label, address }),
      pick: () => onPick(wallet.address),
    };
  });
  return (
    <Choices header={LL.savedDetails.offeredWallets()} testId="saved-wallets" choices={choices} />
  );
}

export function SavedCardChoices({
  cards,
  onPick,
}: {
  readonly cards: readonly SavedCard[] | undefined;
  readonly onPick: (card: SavedCard) => void;
}) {
  const { LL } = useI18nContext();
  const choices = (cards ?? []).map((card) => {
    const number = maskCardNumber(card.cardNumber);
    return {
      id: card.id,
      label: card.label,
      detail: `${number} · ${card.bankName}`,
      name: LL.savedDetails.useCard({ label: card.label, number, bank: card.bankName }),
      pick: () => onPick(card),
    };
  });
  return <Choices header={LL.savedDetails.offeredCards()} testId="saved-cards" choices={choices} />;
}
