/**
 * The scan button beside a form's wallet field: it opens Telegram's QR scanner and hands the
 * address a code holds to the field, read for the selected network by src/shared/wallet-uri.ts.
 * A code for another network, or with no address, leaves the field as it was and says why under
 * it. Where the client has no scanner the button is not there.
 */
import { IconButton } from '@telegram-apps/telegram-ui';
import { NETWORKS, type NetworkId } from '../../../shared/networks';
import { readScannedWallet, type ScanRefusal } from '../../../shared/wallet-uri';
import { useEnvironment } from '../../environment-context';
import { useI18nContext } from '../../i18n/language';
import { hapticError, hapticSuccess } from '../../telegram/actions';
import { canScanQr, scanQrText } from '../../telegram/qr-scanner';
import { FieldError } from '../../components/field-error';

/** A refused scan, kept as its reason and network so the message follows a language switch. */
export interface ScanRefused {
  readonly reason: ScanRefusal;
  readonly network: NetworkId;
}

export function WalletScanButton({
  network,
  onAddress,
  onRefused,
}: {
  readonly network: NetworkId;
  readonly onAddress: (address: string) => void;
  readonly onRefused: (refused: ScanRefused) => void;
}) {
  const { LL } = useI18nContext();
  const { inTelegram } = useEnvironment();
  if (!canScanQr(inTelegram)) return null;

  const scan = async () => {
    const text = await scanQrText(LL.walletScan.scannerTitle());
    if (text === undefined) return;
    const result = readScannedWallet(network, text);
    if (result.kind === 'address') {
      hapticSuccess();
      onAddress(result.address);
    } else {
      hapticError();
      onRefused({ reason: result.reason, network });
    }
  };
  return (
    <IconButton
      type="button"
      mode="plain"
      size="m"
      className="wallet-scan"
      aria-label={LL.walletScan.button()}
      data-testid="wallet-scan"
      onClick={() => void scan()}
    >
      <ScanIcon />
    </IconButton>
  );
}

/** Why the last scan was refused, in the language shown now. */
export function ScanRefusedText({ refused }: { readonly refused: ScanRefused | null }) {
  const { LL } = useI18nContext();
  if (refused === null) return null;
  const network = NETWORKS[refused.network].name;
  const text =
    refused.reason === 'other-network'
      ? LL.walletScan.otherNetwork({ network })
      : LL.walletScan.notAddress({ network });
  return <FieldError text={text} testId="wallet-scan-error" />;
}

/** A viewfinder: four corners and a scan line, drawn in the button's text colour. */
function ScanIcon() {
  return (
    <svg
      aria-hidden="true"
      width="24"
      height="24"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M4 8V5a1 1 0 0 1 1-1h3M16 4h3a1 1 0 0 1 1 1v3M20 16v3a1 1 0 0 1-1 1h-3M8 20H5a1 1 0 0 1-1-1v-3M4 12h16" />
    </svg>
  );
}
