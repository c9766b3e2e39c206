/** Request shapes checked with the valibot schemas of src/shared: a bad shape is 400, never 500. */
import * as v from 'valibot';
import { UUID_PATTERN } from '../../../shared/schemas/text';
import { AppError } from '../errors';

export function parseWith<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (!result.success) {
    const fields = [
      ...new Set(result.issues.map((issue) => v.getDotPath(issue)).filter((p) => p !== null)),
    ];
    throw new AppError('VALIDATION_FAILED', fields.length > 0 ? { fields } : {});
  }
  return result.output;
}

/**
 * A UUID path parameter (an order's or a receipt's id). Anything else cannot name one, so it is
 * answered as missing before it reaches the database.
 */
function uuidParam(
  params: unknown,
  name: string,
  missing: 'ORDER_NOT_FOUND' | 'NOT_FOUND',
): string {
  const id = (params as Record<string, unknown> | undefined)?.[name];
  if (typeof id !== 'string' || !UUID_PATTERN.test(id)) throw new AppError(missing);
  return id.toLowerCase();
}

/** The `:id` of an order route. */
export function orderIdParam(params: unknown): string {
  return uuidParam(params, 'id', 'ORDER_NOT_FOUND');
}

/** The `:receiptId` of a receipt route. */
export function receiptIdParam(params: unknown): string {
  return uuidParam(params, 'receiptId', 'NOT_FOUND');
}
