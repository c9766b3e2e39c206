/**
 * A transaction hash (the seller's incoming one, or the electronic receipt of crypto sent): the
 * hash with tap-to-copy, and a link that opens it on the network's block explorer through Telegram.
 * Nothing while the order has no such hash.
 */
import { Cell } from '@telegram-apps/telegram-ui';
import { explorerTxUrl, type NetworkId } from '../../../shared/networks';
import { useEnvironment } from '../../environment-context';
import { useI18nContext } from '../../i18n/language';
import { openExternalLink } from '../../telegram/actions';
import { CopyRow } from '../../components/copy-row';

export function TxHashRow({
  label,
  hash,
  network,
  testId,
}: {
  readonly label: string;
  readonly hash: string | null;
  readonly network: NetworkId;
  readonly testId?: string;
}) {
  const { LL } = useI18nContext();
  const { inTelegram } = useEnvironment();
  if (hash === null) return null;
  const url = explorerTxUrl(network, hash);
  return (
    <>
      <CopyRow label={label} value={hash} testId={testId} />
      <Cell
        data-testid={testId === undefined ? undefined : `${testId}-explorer`}
        data-href={url}
        onClick={() => openExternalLink(url, inTelegram)}
        after={<span aria-hidden="true">↗</span>}
      >
        <span className="copy-hint">{LL.explorer.open()}</span>
      </Cell>
    </>
  );
}

/**
 * The crypto sent to the customer (`outgoingTxHash`), which they keep as an electronic receipt;
 * nothing before it is sent.
 */
export function ElectronicReceiptRow({
  order,
}: {
  readonly order: { readonly outgoingTxHash: string | null; readonly network: NetworkId };
}) {
  const { LL } = useI18nContext();
  return (
    <TxHashRow
      label={LL.complete.electronicReceipt()}
      hash={order.outgoingTxHash}
      network={order.network}
      testId="outgoing-tx"
    />
  );
}
