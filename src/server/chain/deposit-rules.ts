/**
 * What makes a transaction the right deposit of a sell or the right payout of a buy
 * (docs/chain-checks.md): one rule, judged the same way when the seller submits the hash
 * (tx-hash-submission.ts), when the scan finds it (chain/chain-scan.ts) and when the chain
 * checker reads it later (chain/chain-checker.ts). A deposit counts when its transaction
 * succeeded, it moves the order's coin's official contract, pays the order's deposit address
 * exactly the order's amount (the amount that ties it to this sell alone: orders/deposit-amounts.ts),
 * and its block is not older than the order; a payout the same, to the customer's wallet, from
 * the exchange's payout address when one is configured, at least the order's amount and not far
 * more, not older than the payment it answers (operator/verbs/complete.ts).
 * That it is used by no other order is the database's unique index (chain_checks_transfer), not
 * a read here: a check-then-insert would race.
 */
import type { ApiErrorDetails } from '../../shared/api';
import type { CryptoCurrency } from '../../shared/networks';
import { tokenAmountToDecimal } from '../../shared/money';
import type { TokenTransfer, TransactionFound } from './readers/chain-reader';

/** What a deposit must be, from the order and the configuration. */
export interface DepositExpectation {
  readonly coin: CryptoCurrency;
  /** The coin's official contract on the order's network (chain-config.ts). */
  readonly contract: string;
  /** The order's deposit address (`requisites.walletAddress`). */
  readonly depositAddress: string;
  /**
   * The order's exact amount in the token's base units (money.ts, `unitsToTokenAmount`), or what
   * an operator accepted instead.
   */
  readonly amount: bigint;
  /** The token's decimals, read from the contract. */
  readonly decimals: number;
  /** When the order was created, in epoch ms. */
  readonly orderCreatedAt: number;
  /**
   * `exact` for the chain's own judgement; `at_least` when an operator, shown both amounts,
   * attaches a transfer of more.
   */
  readonly rule: AmountRule;
}

/** Whether a transfer must pay exactly the amount, or at least it. */
export type AmountRule = 'exact' | 'at_least';

/** A transfer of the wrong amount: less, or (under the exact rule) more. */
export type AmountProblem =
  | {
      readonly code: 'TX_UNDERPAID';
      readonly shortfall: string;
      /** What the transfer moved, in base units. */
      readonly sent: bigint;
    }
  | {
      readonly code: 'TX_AMOUNT_MISMATCH';
      readonly sent: bigint;
      /** What the order expects, in base units. */
      readonly expected: bigint;
    };

/** Why a transaction is not the deposit, each the error code the seller is answered with. */
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
      /** What was paid beyond the amount, in base units (0n when exact): operators settle it. */
      readonly overpaid: bigint;
    }
  | { readonly ok: false; readonly problem: DepositProblem };

/**
 * An address as it is compared and kept: EVM addresses are hex, without their EIP-55 case;
 * Tron's base58 addresses are case-sensitive, kept as they are.
 */
export function addressKey(address: string): string {
  return address.startsWith('0x') ? address.toLowerCase() : address;
}

/** Whether two addresses are the same account or contract (see {@link addressKey}). */
export function sameAddress(a: string, b: string): boolean {
  return addressKey(a) === addressKey(b);
}

/** What an operator's payout of a buy must be. */
export interface PayoutExpectation {
  readonly coin: CryptoCurrency;
  /** The coin's official contract on the order's network (chain-config.ts). */
  readonly contract: string;
  /** The customer's wallet: the buy order's `wallet_address`. */
  readonly customerWallet: string;
  /**
   * The exchange's wallet the payout must come from (PAYOUT_ADDRESS_EVM or PAYOUT_ADDRESS_TRC20,
   * by the network's family). Undefined: any sender's transfer is taken, so a customer who
   * paid themselves from their own wallet would pass as paid.
   */
  readonly payoutAddress: string | undefined;
  /** The order's amount in the token's base units (money.ts, `unitsToTokenAmount`). */
  readonly amount: bigint;
  /** The token's decimals, read from the contract. */
  readonly decimals: number;
  /**
   * When the order reached the status it is completed from (its order_events row), in epoch
   * ms: a payout cannot be older than the payment it answers.
   */
  readonly paidAt: number;
}

/** Why a transaction is not the payout, each the error code the operator is answered with. */
export type PayoutProblem =
  | { readonly code: 'TX_FAILED' }
  | { readonly code: 'TX_WRONG_TOKEN' }
  | { readonly code: 'TX_WRONG_RECIPIENT' }
  | { readonly code: 'TX_WRONG_SENDER' }
  | { readonly code: 'TX_BEFORE_PAYMENT' }
  | AmountProblem
  | {
      readonly code: 'TX_OVERPAID';
      /** What the transfer moved, in base units. */
      readonly sent: bigint;
      /** The order's amount, in base units. */
      readonly expected: bigint;
    };

/**
 * How much more than the order's amount a payout may send and still be taken: 1 % of the amount,
 * at most one whole coin. A little more is an operator rounding up by hand or a wallet that sends
 * whole cents, and costs the exchange next to nothing; far more is most often the hash of another,
 * larger transfer to the same wallet (an earlier payout to a returning customer) or a typed
 * amount gone wrong, which a person should look at before the order is closed. The cap of one
 * coin keeps the 1 % from growing into real money on a large order.
 */
export const PAYOUT_OVERPAY_TOLERANCE = { percent: 1n, wholeCoins: 1n } as const;

/** {@link PAYOUT_OVERPAY_TOLERANCE} of `amount`, in the token's base units. */
export function payoutTolerance(amount: bigint, decimals: number): bigint {
  const share = (amount * PAYOUT_OVERPAY_TOLERANCE.percent) / 100n;
  const cap = PAYOUT_OVERPAY_TOLERANCE.wholeCoins * 10n ** BigInt(decimals);
  return share < cap ? share : cap;
}

/** The problems only a payout can have: its sender, its over-amount, the payment's time. */
const PAYOUT_ONLY_CODES: ReadonlySet<TransferProblem['code']> = new Set([
  'TX_WRONG_SENDER',
  'TX_BEFORE_PAYMENT',
  'TX_OVERPAID',
]);

/**
 * Whether a transfer problem is one a deposit can have: the chain checker, which judges both,
 * flags a deposit's problem by its own table, where a payout's own problems have no place.
 */
export function isDepositProblem(problem: TransferProblem): problem is DepositProblem {
  return !PAYOUT_ONLY_CODES.has(problem.code);
}

/**
 * What a refusal tells besides its code (the error's details): the coin whose official contract
 * a look-alike imitates, the shortfall of an underpayment in that coin, and what a transfer of
 * another amount (or a payout of far more) sent against what the order expects.
 */
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

/** Either problem a transfer can have, whichever side of the order it is. */
export type TransferProblem = DepositProblem | PayoutProblem;

/**
 * The official token's transfers of `tx` to `recipient`, or why there is none: the first steps of
 * the one rule of a token transfer, whichever way it goes. The problems are told in the order one
 * can act on: the wrong coin first, then the wrong address (the payout's sender next, then the
 * time, then the amount: {@link judgePayout}, {@link judgeDeposit}).
 */
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

/**
 * Whether the transaction's block is older than `notBefore` (epoch ms). Block times are whole
 * seconds: a transfer in the very second of `notBefore` counts as after it.
 */
function before(tx: TransactionFound, notBefore: number): boolean {
  return tx.blockTime + 1_000 <= notBefore;
}

/**
 * The amount's part of the rule: of the transfers paying the recipient (one at least), the one
 * of `amount` is the one, else the largest (one transfer is one movement); it pays `amount`
 * exactly, or at least it, by `rule`.
 */
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

/**
 * Judges a transaction found on the chain as the sell's deposit to the exchange: succeeded,
 * moves the official contract, pays the deposit address, not before the order, the amount by
 * the expectation's rule.
 */
export function judgeDeposit(tx: TransactionFound, expected: DepositExpectation): DepositJudgement {
  const found = transfersTo(tx, expected.contract, expected.depositAddress);
  if (!found.ok) return found;
  if (before(tx, expected.orderCreatedAt)) {
    return { ok: false, problem: { code: 'TX_BEFORE_ORDER' } };
  }
  return judgeAmount(found.paying, expected);
}

/**
 * Judges a transaction found on the chain as the operator's payout of a buy to the customer's
 * wallet: the deposit's rule, with the customer's wallet as the recipient, the payout address
 * (when configured) as the only sender, the payment's confirmation as the earliest time, and at
 * least the order's amount but no more than {@link payoutTolerance} beyond it. The sender is
 * told after the recipient: a transfer to the wrong wallet is wrong whoever sent it.
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
