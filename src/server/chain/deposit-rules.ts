/**
 * The one rule of a right deposit or payout (docs/chain-checks.md), judged alike at submission,
 * scan and check. That no other order uses a transfer is the unique index chain_checks_transfer,
 * not a read here: a check-then-insert would race.
 */
import type { ApiErrorDetails } from '../../shared/api';
import type { CryptoCurrency } from '../../shared/networks';
import { tokenAmountToDecimal } from '../../shared/money';
import type { TokenTransfer, TransactionFound } from './readers/chain-reader';

export interface DepositExpectation {
  readonly coin: CryptoCurrency;
  readonly contract: string;
  readonly depositAddress: string;
  /** Base units of the order's exact amount, or what an operator accepted instead. */
  readonly amount: bigint;
  readonly decimals: number;
  readonly orderCreatedAt: number;
  /** `at_least` when an operator, shown both amounts, attaches a transfer of more. */
  readonly rule: AmountRule;
}

export type AmountRule = 'exact' | 'at_least';

export type AmountProblem =
  | {
      readonly code: 'TX_UNDERPAID';
      readonly shortfall: string;
      readonly sent: bigint;
    }
  | {
      readonly code: 'TX_AMOUNT_MISMATCH';
      readonly sent: bigint;
      readonly expected: bigint;
    };

export type DepositProblem =
  | { readonly code: 'TX_FAILED' }
  | { readonly code: 'TX_WRONG_TOKEN' }
  | { readonly code: 'TX_WRONG_RECIPIENT' }
  | { readonly code: 'TX_BEFORE_ORDER' }
  | AmountProblem;

export type DepositJudgement =
  | {
      readonly ok: true;
      readonly transfer: TokenTransfer;
      /** Paid beyond the amount, in base units (0n when exact): operators settle it. */
      readonly overpaid: bigint;
    }
  | { readonly ok: false; readonly problem: DepositProblem };

/** An address as compared and kept: EVM hex without its EIP-55 case; Tron's base58 as it is. */
export function addressKey(address: string): string {
  return address.startsWith('0x') ? address.toLowerCase() : address;
}

export function sameAddress(a: string, b: string): boolean {
  return addressKey(a) === addressKey(b);
}

export interface PayoutExpectation {
  readonly coin: CryptoCurrency;
  readonly contract: string;
  readonly customerWallet: string;
  /** The payout's only allowed sender; undefined takes any, so a customer's own transfer passes. */
  readonly payoutAddress: string | undefined;
  readonly amount: bigint;
  readonly decimals: number;
  /** When the order reached the status it completes from: a payout cannot be older. */
  readonly paidAt: number;
}

export type PayoutProblem =
  | { readonly code: 'TX_FAILED' }
  | { readonly code: 'TX_WRONG_TOKEN' }
  | { readonly code: 'TX_WRONG_RECIPIENT' }
  | { readonly code: 'TX_WRONG_SENDER' }
  | { readonly code: 'TX_BEFORE_PAYMENT' }
  | AmountProblem
  | {
      readonly code: 'TX_OVERPAID';
      readonly sent: bigint;
      readonly expected: bigint;
    };

/**
 * A payout may exceed the amount by 1 %, at most one coin: a rounding operator costs next to
 * nothing, while far more is usually another transfer's hash and needs a person.
 */
export const PAYOUT_OVERPAY_TOLERANCE = { percent: 1n, wholeCoins: 1n } as const;

export function payoutTolerance(amount: bigint, decimals: number): bigint {
  const share = (amount * PAYOUT_OVERPAY_TOLERANCE.percent) / 100n;
  const cap = PAYOUT_OVERPAY_TOLERANCE.wholeCoins * 10n ** BigInt(decimals);
  return share < cap ? share : cap;
}

const PAYOUT_ONLY_CODES: ReadonlySet<TransferProblem['code']> = new Set([
  'TX_WRONG_SENDER',
  'TX_BEFORE_PAYMENT',
  'TX_OVERPAID',
]);

/** Whether a problem is a deposit's: the checker flags those by its own table. */
export function isDepositProblem(problem: TransferProblem): problem is DepositProblem {
  return !PAYOUT_ONLY_CODES.has(problem.code);
}

/** What a refusal tells besides its code: the imitated coin, the shortfall, both amounts. */
export function refusalDetails(
  problem: DepositProblem | PayoutProblem,
  coin: CryptoCurrency,
  decimals: number,
): Pick<ApiErrorDetails, 'coin' | 'shortfall' | 'sent' | 'expected'> {
  switch (problem.code) {
    case 'TX_UNDERPAID':
      return { coin, shortfall: problem.shortfall };
    case 'TX_AMOUNT_MISMATCH':
    case 'TX_OVERPAID':
      return {
        coin,
        sent: tokenAmountToDecimal(problem.sent, decimals),
        expected: tokenAmountToDecimal(problem.expected, decimals),
      };
    case 'TX_WRONG_TOKEN':
      return { coin };
    default:
      return {};
  }
}

export type PayoutJudgement =
  | { readonly ok: true; readonly transfer: TokenTransfer; readonly overpaid: bigint }
  | { readonly ok: false; readonly problem: PayoutProblem };

export type TransferProblem = DepositProblem | PayoutProblem;

/** The official token's transfers of `tx` to `recipient`, or the first problem one can act on. */
function transfersTo(
  tx: TransactionFound,
  contract: string,
  recipient: string,
):
  | { readonly ok: true; readonly paying: readonly TokenTransfer[] }
  | {
      readonly ok: false;
      readonly problem: { readonly code: 'TX_FAILED' | 'TX_WRONG_TOKEN' | 'TX_WRONG_RECIPIENT' };
    } {
  if (!tx.success) return { ok: false, problem: { code: 'TX_FAILED' } };
  const official = tx.transfers.filter((t) => sameAddress(t.contract, contract));
  if (official.length === 0) return { ok: false, problem: { code: 'TX_WRONG_TOKEN' } };
  const paying = official.filter((t) => sameAddress(t.to, recipient));
  if (paying.length === 0) return { ok: false, problem: { code: 'TX_WRONG_RECIPIENT' } };
  return { ok: true, paying };
}

/** Block times are whole seconds: a transfer in the very second of `notBefore` counts as after. */
function before(tx: TransactionFound, notBefore: number): boolean {
  return tx.blockTime + 1_000 <= notBefore;
}

/** Of the transfers to the recipient, the one of `amount`, else the largest, held to `rule`. */
function judgeAmount(
  paying: readonly TokenTransfer[],
  expected: { readonly amount: bigint; readonly decimals: number; readonly rule: AmountRule },
):
  | { readonly ok: true; readonly transfer: TokenTransfer; readonly overpaid: bigint }
  | { readonly ok: false; readonly problem: AmountProblem } {
  const transfer =
    paying.find((t) => t.amount === expected.amount) ??
    paying.reduce((best, t) => (t.amount > best.amount ? t : best));
  const sent = transfer.amount;
  if (sent < expected.amount) {
    const shortfall = tokenAmountToDecimal(expected.amount - sent, expected.decimals);
    return { ok: false, problem: { code: 'TX_UNDERPAID', shortfall, sent } };
  }
  if (sent > expected.amount && expected.rule === 'exact') {
    return { ok: false, problem: { code: 'TX_AMOUNT_MISMATCH', sent, expected: expected.amount } };
  }
  return { ok: true, transfer, overpaid: sent - expected.amount };
}

/** Judges `tx` as the sell's deposit to the exchange. */
export function judgeDeposit(tx: TransactionFound, expected: DepositExpectation): DepositJudgement {
  const found = transfersTo(tx, expected.contract, expected.depositAddress);
  if (!found.ok) return found;
  if (before(tx, expected.orderCreatedAt)) {
    return { ok: false, problem: { code: 'TX_BEFORE_ORDER' } };
  }
  return judgeAmount(found.paying, expected);
}

/**
 * Judges `tx` as the operator's payout of a buy: the sender is told after the recipient, since a
 * transfer to the wrong wallet is wrong whoever sent it.
 */
export function judgePayout(tx: TransactionFound, expected: PayoutExpectation): PayoutJudgement {
  const found = transfersTo(tx, expected.contract, expected.customerWallet);
  if (!found.ok) return found;
  const { payoutAddress } = expected;
  const paying =
    payoutAddress === undefined
      ? found.paying
      : found.paying.filter((t) => sameAddress(t.from, payoutAddress));
  if (paying.length === 0) return { ok: false, problem: { code: 'TX_WRONG_SENDER' } };
  if (before(tx, expected.paidAt)) return { ok: false, problem: { code: 'TX_BEFORE_PAYMENT' } };
  const judged = judgeAmount(paying, { ...expected, rule: 'at_least' });
  if (judged.ok && judged.overpaid > payoutTolerance(expected.amount, expected.decimals)) {
    const sent = judged.transfer.amount;
    return { ok: false, problem: { code: 'TX_OVERPAID', sent, expected: expected.amount } };
  }
  return judged;
}
