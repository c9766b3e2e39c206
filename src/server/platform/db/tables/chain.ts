/** The chain checks: an order's transaction, a sell's exact amount, the address scans. */
import type { ColumnType } from 'kysely';
import type { CryptoCurrency, NetworkId } from '../../../../shared/networks';

/** What a chain check is for: the seller's deposit (a buy's payout later). */
export type ChainCheckKind = 'deposit' | 'payout';

/**
 * Where a chain check stands: `looking` for a hash the node does not know (yet), `seen` once
 * found and right and counting its confirmations, `confirmed` once they are reached (the order
 * moved), `not_found` when the lookup window passed (operators flagged), `wrong` when a
 * transfer found later breaks a deposit rule (operators flagged), `closed` when the order left
 * the status the check was for by other means (an operator, a cancel).
 */
export type ChainCheckState = 'looking' | 'seen' | 'confirmed' | 'not_found' | 'wrong' | 'closed';

/** The chain checker's row of an order's transaction (migration 0015). */
export interface ChainChecksTable {
  order_id: string;
  kind: ChainCheckKind;
  network: NetworkId;
  /** Lower-case, as the unique transfer key compares it. */
  tx_hash: string;
  state: ChainCheckState;
  /** The transfer's (network, hash, log index): set once found, unique among deposits. */
  log_index: number | null;
  block_number: number | null;
  /** The seen block's hash, where the chain gives it (migration 0018). */
  block_hash: ColumnType<string | null, string | null | undefined, string | null>;
  block_time: number | null;
  /** When a final read first found the transfer gone: read once more before it is a reorg. */
  vanished_at: ColumnType<number | null, number | null | undefined, number | null>;
  confirmations: ColumnType<number, number | undefined, number>;
  required_confirmations: number;
  /** In the token's base units, as a decimal string (18-decimal amounts exceed a double). */
  amount: string | null;
  decimals: number | null;
  sender: string | null;
  contract: string | null;
  /** 1 once a transfer seen was gone on a later read (a reorganised block). */
  reorged: ColumnType<number, number | undefined, number>;
  attempts: ColumnType<number, number | undefined, number>;
  next_check_at: number;
  look_until: number;
  /** Until when an instance's checker holds the row; null when nobody does. */
  claimed_until: ColumnType<number | null, number | null | undefined, number | null>;
  /** The claim that holds it (migration 0018): every write of the check names it. */
  lease: ColumnType<string | null, string | null | undefined, string | null>;
  last_fault: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * What an operator accepted as a deposit instead of the order's exact amount, in base units
   * (migration 0018); null: the order's own amount.
   */
  accepted_amount: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: number;
  updated_at: number;
}

/**
 * The exact amount a sell was given to send (migration 0018), held unique per network and coin
 * while the sell is open and for DEPOSIT_AMOUNT_HOLD_HOURS after it ended.
 */
export interface DepositAmountsTable {
  network: NetworkId;
  crypto_currency: CryptoCurrency;
  /** The order's amount, in millionths (orders.amount_units). */
  amount_units: number;
  order_id: string;
  created_at: number;
}

/** Where the scan of a deposit address for one token's transfers stands (migration 0016). */
export interface ChainScansTable {
  network: NetworkId;
  /** As `addressKey` keeps it (chain/deposit-rules.ts): EVM in lower case, Tron as it is. */
  address: string;
  contract: string;
  /** EVM: the first block the next scan reads. */
  next_block: number | null;
  /** Tron: the block time (ms) the next scan starts from, inclusive. */
  next_time: number | null;
  claimed_until: ColumnType<number | null, number | null | undefined, number | null>;
  /**
   * EVM: the final blocks not scanned yet at the last scan (migration 0018); null for Tron,
   * whose history is read to its end every round.
   */
  lag_blocks: ColumnType<number | null, number | null | undefined, number | null>;
  updated_at: number;
}

/**
 * A transfer to a deposit address that no submitted hash names and that matched no single waiting
 * order (migration 0016): listed for operators until one attaches it to an order (`order_id`).
 */
export interface ChainIncomingTable {
  network: NetworkId;
  tx_hash: string;
  contract: string;
  coin: CryptoCurrency;
  sender: string;
  recipient: string;
  /** In the token's base units, as a decimal string. */
  amount: string;
  decimals: number;
  log_index: number | null;
  block_number: number | null;
  block_time: number | null;
  /**
   * How many sells hold its exact amount: 0 (kept for operators), or 1 (the order it is, when
   * that order could not take it: ended, or waiting on another hash).
   */
  candidates: number;
  order_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1: under CHAIN_DUST_BELOW and no sell's amount, never listed (migration 0018). */
  dust: ColumnType<number, number | undefined, number>;
  seen_at: number;
}
