/**
 * After an order, the offer to keep its wallet (a buy) or its card (a sell) for the next one:
 * a label the customer may edit, prefilled, and one button; once kept, the offer says so instead
 * (and says so at once when it was kept before). Hidden while the saved list is not known.
 */
import { Button, Input, Section } from '@telegram-apps/telegram-ui';
import { useState } from 'react';
import type { OrderDetails } from '../../../shared/api';
import { NETWORKS } from '../../../shared/networks';
import { savedCardShownAs, walletKey } from '../../../shared/saved-details';
import { saveOrderCard, saveWallet } from '../../api/saved-details';
import { useSavedDetails } from '../../hooks/use-saved-details';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { hapticError, hapticSuccess } from '../../telegram/actions';
import { failureText } from '../../components/failure-text';
import { FieldError } from '../../components/field-error';
import { checkSavedLabel, proposedLabel } from './saved-label';

/** "Save this wallet" under a buy that has a wallet. */
export function SaveWalletOffer({ order }: { readonly order: OrderDetails }) {
  const { LL } = useI18nContext();
  const saved = useSavedDetails();
  const address = order.walletAddress;
  if (order.type !== 'BUY' || address === null || saved.details === undefined) return null;
  const network = order.network;
  const key = walletKey(network, address);
  const kept = saved.details.wallets.find(
    (wallet) => wallet.network === network && walletKey(network, wallet.address) === key,
  );
  const networkName = NETWORKS[network].name;
  return (
    <SaveOffer
      testId="save-wallet"
      title={LL.savedDetails.saveWalletTitle()}
      hint={LL.savedDetails.saveWalletHint({ network: networkName })}
      shown={address}
      button={LL.savedDetails.saveWallet()}
      proposed={proposedLabel(LL.savedDetails.defaultWalletLabel({ network: networkName }))}
      keptText={kept === undefined ? null : LL.savedDetails.walletIsSaved({ label: kept.label })}
      save={(label) => saved.write(() => saveWallet({ network, address, label }))}
    />
  );
}

/**
 * "Save this card" under a sell, on any device: the order shows its card masked, and the server
 * saves it from the order. Said to be kept when a saved card looks the same (savedCardShownAs).
 */
export function SaveCardOffer({ order }: { readonly order: OrderDetails }) {
  const { LL } = useI18nContext();
  const saved = useSavedDetails();
  const card = order.payoutCard;
  if (order.type !== 'SELL' || card === null || saved.details === undefined) return null;
  const kept = savedCardShownAs(saved.details.cards, card);
  return (
    <SaveOffer
      testId="save-card"
      title={LL.savedDetails.saveCardTitle()}
      hint={LL.savedDetails.saveCardHint()}
      shown={`${card.maskedNumber} · ${card.bankName}`}
      button={LL.savedDetails.saveCard()}
      proposed={proposedLabel(LL.savedDetails.defaultCardLabel({ bank: card.bankName }))}
      keptText={kept === undefined ? null : LL.savedDetails.cardIsSaved({ label: kept.label })}
      save={(label) => saved.write(() => saveOrderCard({ orderId: order.id, label }))}
    />
  );
}

interface SaveOfferProps {
  readonly testId: string;
  readonly title: string;
  readonly hint: string;
  /** The wallet or the masked card, as the customer recognises it. */
  readonly shown: string;
  readonly button: string;
  readonly proposed: string;
  /** Said instead of the offer once the item is kept. */
  readonly keptText: string | null;
  readonly save: (label: string) => Promise<void>;
}

function SaveOffer(props: SaveOfferProps) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const [label, setLabel] = useState(props.proposed);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (props.keptText !== null) {
    return (
      <p className="saved-note" role="status" data-testid={`${props.testId}-done`}>
        <span aria-hidden="true">✓ </span>
        {props.keptText}
      </p>
    );
  }
  const submit = async () => {
    const checked = checkSavedLabel(label, LL, language);
    if (!checked.ok) {
      hapticError();
      setError(checked.error);
      return;
    }
    setBusy(true);
    try {
      await props.save(checked.label);
      hapticSuccess();
    } catch (failure) {
      hapticError();
      setError(failureText(failure, LL, LL.savedDetails.saveFailed(), language));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Section header={props.title} footer={props.hint} data-testid={props.testId}>
      <p className="saved-offer__item">{props.shown}</p>
      <Input
        header={LL.savedDetails.label()}
        aria-label={LL.savedDetails.label()}
        name="savedLabel"
        value={label}
        status={error === null ? 'default' : 'error'}
        onChange={(event) => {
          setError(null);
          setLabel(event.target.value);
        }}
      />
      {error !== null && <FieldError text={error} testId={`${props.testId}-error`} />}
      <div className="saved-offer__actions">
        <Button
          type="button"
          size="m"
          mode="bezeled"
          stretched
          loading={busy}
          onClick={() => void submit()}
          data-testid={`${props.testId}-button`}
        >
          {props.button}
        </Button>
      </div>
    </Section>
  );
}
