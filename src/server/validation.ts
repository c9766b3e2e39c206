/** Request shapes checked with the valibot schemas of src/shared: a bad shape is 400, never 500. */
import * as v from 'valibot';
import { AppError } from './errors';

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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Order ids are UUIDs; anything else cannot be an order, so it is answered as a missing one. */
export function orderIdParam(params: unknown): string {
  const id = (params as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'string' || !UUID.test(id)) throw new AppError('ORDER_NOT_FOUND');
  return id.toLowerCase();
}
