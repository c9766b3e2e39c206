/**
 * Request parts checked by hand with the valibot schemas of src/shared, where a hook must know
 * them before the route's own validation runs (who may touch an order is asked before its body is
 * read). A bad shape is 400 or the code its schema names, never 500 (contract.ts).
 */
import * as v from 'valibot';
import { OrderParamsSchema, ReceiptParamsSchema } from '../../../shared/schemas/params';
import { parseInput } from './contract';

/** Request shapes checked with a schema of src/shared (contract.ts's refusals). */
export const parseWith = parseInput;

const OrderIdOf = v.looseObject(OrderParamsSchema.entries);
const ReceiptIdOf = v.looseObject(ReceiptParamsSchema.entries);

/** The `:id` of an order route, lower-cased; ORDER_NOT_FOUND when it is no UUID. */
export function orderIdParam(params: unknown): string {
  return parseInput(OrderIdOf, params).id;
}

/** The `:receiptId` of a receipt route; NOT_FOUND when it is no UUID (after the order's id). */
export function receiptIdParam(params: unknown): string {
  return parseInput(ReceiptIdOf, params).receiptId;
}
