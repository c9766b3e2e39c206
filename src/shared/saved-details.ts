/**
 * A customer's saved wallets and cards: what a form may offer, and how a saved card is shown.
 * A wallet is saved for one network and offered for that network only (a TRC20 wallet is never
 * offered for an EVM network, nor an address saved for BEP20 for POLYGON: another chain may not
 * be one the wallet's owner receives on), and only while it still passes the network's address
 * check, the same one a typed address meets.
 */
import { isValidWalletAddress } from './addresses';
import { cardDigits } from './cards';
import { isEvmNetwork, type NetworkId } from './networks';

/** What identifies a wallet among a customer's for its network: EVM addresses ignore case. */
export function walletKey(network: NetworkId, address: string): string {
  return isEvmNetwork(network) ? address.toLowerCase() : address;
}

/** The saved wallets a form may offer for `network`, in the order given. */
export function walletsFor<W extends { readonly network: NetworkId; readonly address: string }>(
  network: NetworkId,
  wallets: readonly W[],
): W[] {
  return wallets.filter(
    (wallet) => wallet.network === network && isValidWalletAddress(network, wallet.address),
  );
}

/** How many of a card's last digits are shown. */
const SHOWN_CARD_DIGITS = 4;

/** A saved card as shown: its last four digits ("•••• 6789"); the rest is never on screen. */
export function maskCardNumber(cardNumber: string): string {
  return `•••• ${cardDigits(cardNumber).slice(-SHOWN_CARD_DIGITS)}`;
}

/**
 * The saved card an order's card is, as far as the order shows it (its masked number and bank:
 * the status answer never carries the whole number); undefined when none looks the same.
 */
export function savedCardShownAs<
  C extends { readonly cardNumber: string; readonly bankName: string },
>(
  cards: readonly C[],
  shown: { readonly maskedNumber: string; readonly bankName: string } | null,
): C | undefined {
  if (shown === null) return undefined;
  return cards.find(
    (card) =>
      maskCardNumber(card.cardNumber) === shown.maskedNumber && card.bankName === shown.bankName,
  );
}
