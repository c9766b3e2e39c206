/** What an order is priced by: app.ts hands in the rates module's quote (orders/ imports none). */
import type { CryptoCurrency } from '../../shared/networks';
import type { OrderType, PaymentMethod } from '../../shared/order-status';
import type { ServerContext } from '../platform/context';

export interface QuoteRequest {
  readonly fiat: string;
  readonly crypto: CryptoCurrency;
  readonly method: PaymentMethod;
  readonly operation: OrderType;
}

/** The quote in millionths of the fiat per coin; an AppError when the pair has none. */
export type Quote = (ctx: ServerContext, request: QuoteRequest) => Promise<number>;
