/**
 * A source of market prices: one public API read in its documented format, behind one small
 * interface. A read answers the prices it found, each a pair (so much `quote` currency for one
 * `base`: USDT in RUB, USD in RUB) in millionths, with the time the source gives it; or throws a
 * SourceFault saying why it could not. A source never answers a price it did not read now: no
 * zero, no last value kept from an earlier read.
 */
import type { ListedCurrency } from '../../../shared/currencies';
import type { PriceBase } from '../../platform/db/schema';

export type { PriceBase } from '../../platform/db/schema';

export interface SourcePrice {
  readonly base: PriceBase;
  readonly quote: ListedCurrency;
  /** `quote` per one `base`, in millionths (6 decimals, as every rate is kept). */
  readonly units: number;
  /** When the source says the price was true (ms); a source giving none: when it was read. */
  readonly at: number;
  /** What an operator may want to know beside the price: an order book's depth, a nominal. */
  readonly detail?: string;
}

/** How a read failed, kept as the source's state until a read succeeds. */
export type FaultKind =
  | 'timeout'
  | 'unreachable'
  /** 429 (or 503) with or without Retry-After: the next read waits `retryAfterMs`. */
  | 'rate_limited'
  | 'http_status'
  /** Not the documented shape, or not the pair asked for. */
  | 'malformed'
  /** A number outside the sane band of its pair. */
  | 'absurd';

export class SourceFault extends Error {
  constructor(
    readonly kind: FaultKind,
    message: string,
    /** How long the source asked to be left alone (Retry-After), when it did. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'SourceFault';
  }
}

export interface RateSource {
  /** Its name in the configuration, the database, the logs and the metrics: `coingecko`. */
  readonly name: string;
  /**
   * `market`: quoted continuously, fresh for RATE_SOURCE_MAX_AGE; `daily`: a bank's rate of
   * the day, fresh through the day it is published for.
   */
  readonly cadence: 'market' | 'daily';
  /**
   * Reads the source once; `signal` aborts it (the server stopping). `now` is the server's
   * clock: the time of a price the source gives no time for.
   */
  read(signal: AbortSignal, now: number): Promise<readonly SourcePrice[]>;
}
