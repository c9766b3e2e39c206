/**
 * The order's id of a request read by hand with the schema of src/shared, where a hook must know
 * it before the route's own validation runs (who may touch an order is asked before its body is
 * read). An id that is no UUID is ORDER_NOT_FOUND, as the route's schema answers it (contract.ts).
 */
import * as v from 'valibot';
import { OrderParamsSchema } from '../../../shared/schemas/params';
import { parseInput } from './contract';

const OrderIdOf = v.looseObject(OrderParamsSchema.entries);

/** The `:id` of an order route, lower-cased; ORDER_NOT_FOUND when it is no UUID. */
export function orderIdParam(params: unknown): string {
  return parseInput(OrderIdOf, params).id;
}
