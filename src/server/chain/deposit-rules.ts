/**
 * What makes a transaction the right deposit of a sell (design.md, "Chain checks"; issue 23, "A
 * seller's deposit"): one rule, judged the same way when the seller submits the hash
 * (orders/customer-orders.ts) and when the chain checker finds it later (jobs/chain-checker.ts).
 * A transfer counts when its transaction succeeded, it moves the order's coin's official
 * contract, pays the order's deposit address at least the order's amount, and its block is not
 * older than the order. That it is used by no other order is the database's unique index
 * (chain_checks_transfer), not a read here: a check-then-insert would race.
 */
import type { CryptoCurrency } from '../../shared/networks';
import { tokenAmountToDecimal } from '../../shared/money';
import type { TokenTransfer, TransactionFound } from './chain-reader';

/** What a deposit must be, from the order and the configuration. */
export interface DepositExpectation {
  readonly coin: CryptoCurrency;
  /** The coin's official contract on the order's network (chain-config.ts). */
  readonly contract: string;
  /** The order's deposit address (`requisites.walletAddress`). */
  readonly depositAddress: string;
  /** The order's amount in the token's base units (money.ts, `unitsToTokenAmount`). */
  readonly amount: bigint;
  /** The token's decimals, read from the contract. */
  readonly decimals: number;
  /** When the order was created, in epoch ms. */
  readonly orderCreatedAt: number;
}

/** Why a transaction is not the deposit, each the error code the seller is answered with. */
export type DepositProblem =
  | { readonly code: 'TX_FAILED' }
  | { readonly code: 'TX_WRONG_TOKEN' }
  | { readonly code: 'TX_WRONG_RECIPIENT' }
  | { readonly code: 'TX_BEFORE_ORDER' }
  | { readonly code: 'TX_UNDERPAID'; readonly shortfall: string };

export type DepositJudgement =
  | {
      readonly ok: true;
      readonly transfer: TokenTransfer;
      /** What was paid beyond the order, in base units (0n when exact): operators settle it. */
      readonly overpaid: bigint;
    }
  | { readonly ok: false; readonly problem: DepositProblem };

/**
 * EVM addresses are hex, compared without their EIP-55 case; Tron's base58 addresses are
 * case-sensitive, compared as they are.
 */
export function sameAddress(a: string, b: string): boolean {
  return a.startsWith('0x') && b.startsWith('0x') ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/**
 * Judges a transaction found on the chain against the order. When it carries several transfers
 * of the official token to the deposit address, the largest is the deposit (one transfer is one
 * deposit). The problems are told in the order a seller can act on: the wrong coin first, then
 * the wrong address, then the time, then the amount.
 *
 * Block times are whole seconds: a transfer in the very second the order was created counts as
 * after it.
 */
export function judgeDeposit(tx: TransactionFound, expected: DepositExpectation): DepositJudgement {
  if (!tx.success) return { ok: false, problem: { code: 'TX_FAILED' } };
  const official = tx.transfers.filter((t) => sameAddress(t.contract, expected.contract));
  if (official.length === 0) return { ok: false, problem: { code: 'TX_WRONG_TOKEN' } };
  const paying = official.filter((t) => sameAddress(t.to, expected.depositAddress));
  if (paying.length === 0) return { ok: false, problem: { code: 'TX_WRONG_RECIPIENT' } };
  if (tx.blockTime + 1_000 <= expected.orderCreatedAt) {
    return { ok: false, problem: { code: 'TX_BEFORE_ORDER' } };
  }
  const transfer = paying.reduce((best, t) => (t.amount > best.amount ? t : best));
  if (transfer.amount < expected.amount) {
    const shortfall = tokenAmountToDecimal(expected.amount - transfer.amount, expected.decimals);
    return { ok: false, problem: { code: 'TX_UNDERPAID', shortfall } };
  }
  return { ok: true, transfer, overpaid: transfer.amount - expected.amount };
}
