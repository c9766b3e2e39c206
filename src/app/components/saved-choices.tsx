/**
 * The saved wallets and cards a form offers first, each one tap away: a wallet only for the
 * selected network (src/shared/saved-details.ts, `walletsFor`), a card shown by its label and
 * its last four digits. A tap fills the form's fields; the form's own checks still run on them.
 * Nothing is shown while nothing is saved, or while the list is not known.
 */
import { Cell, Section } from '@telegram-apps/telegram-ui';
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
  const offered = walletsFor(network, wallets ?? []);
  if (offered.length === 0) return null;
  return (
    <Section header={LL.savedDetails.offeredWallets()} data-testid="saved-wallets">
      {offered.map((wallet) => (
        <Cell
          key={wallet.id}
          Component="button"
          type="button"
          className="saved-choice"
          data-saved-wallet={wallet.id}
          aria-label={LL.savedDetails.useWallet({
            label: wallet.label,
            address: shortAddress(wallet.address),
          })}
          subtitle={<span className="saved-choice__code">{shortAddress(wallet.address)}</span>}
          onClick={() => {
            hapticSelection();
            onPick(wallet.address);
          }}
        >
          {wallet.label}
        </Cell>
      ))}
    </Section>
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
  if (cards === undefined || cards.length === 0) return null;
  return (
    <Section header={LL.savedDetails.offeredCards()} data-testid="saved-cards">
      {cards.map((card) => (
        <Cell
          key={card.id}
          Component="button"
          type="button"
          className="saved-choice"
          data-saved-card={card.id}
          aria-label={LL.savedDetails.useCard({
            label: card.label,
            number: maskCardNumber(card.cardNumber),
          })}
          subtitle={`${maskCardNumber(card.cardNumber)} · ${card.bankName}`}
          onClick={() => {
            hapticSelection();
            onPick(card);
          }}
        >
          {card.label}
        </Cell>
      ))}
    </Section>
  );
}
