/** An order's id read before the route's validation (who may touch an order is asked first). */
import * as v from 'valibot';
import { OrderParamsSchema } from '../../../shared/schemas/params';
import { parseInput } from './contract';

const OrderIdOf = v.looseObject(OrderParamsSchema.entries);

/** Lower-cased; ORDER_NOT_FOUND when it is no UUID, as the route's schema answers. */
export function orderIdParam(params: unknown): string {
  return parseInput(OrderIdOf, params).id;
}
