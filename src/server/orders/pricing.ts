/**
 * What an order is priced by: the rate of its pair, method and direction as the server quotes it
 * now. The rates module answers it; app.ts hands it to the orders module, which stands on no other.
 */
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
