/**
 * Turns stored orders into the shapes the API answers with (spec section 3), converting integer
 * minor units back to the numbers the app shows.
 */
import type { OrderSummary } from '../../shared/api';
import { fromMinor, fromUnits } from '../../shared/money';
import type { OrderRow } from '../db/schema';

export function toOrderSummary(row: OrderRow): OrderSummary {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    amount: fromUnits(row.amount_units),
    cryptoCurrency: row.crypto_currency,
    network: row.network,
    currency: row.currency,
    totalRub: fromMinor(row.total_minor),
    rate: fromUnits(row.rate_units),
    paymentMethod: row.payment_method,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
