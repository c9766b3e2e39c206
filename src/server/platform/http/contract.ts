/**
 * Routes declare their contract with the valibot schemas of src/shared the app's forms use:
 * Fastify checks the request, hands the handler typed input, and the OpenAPI document is generated
 * from them. A refusal answers our codes, never Fastify's; a response schema documents, it does
 * not filter.
 */
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  FastifySchemaCompiler,
  FastifySerializerCompiler,
  FastifyTypeProvider,
} from 'fastify';
import fp from 'fastify-plugin';
import * as v from 'valibot';
import { isErrorCode } from '../../../shared/errors';
import { ApiErrorBodySchema, type ResponseOf } from '../../../shared/schemas/responses';
import { AppError } from '../errors';

export interface ValibotTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends v.GenericSchema ? v.InferOutput<this['schema']> : unknown;
  // What a handler answers: read-only like every answer type of src/shared.
  serializer: this['schema'] extends v.GenericSchema ? ResponseOf<this['schema']> : unknown;
}

export type ContractInstance = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ValibotTypeProvider
>;

const WIRE = new WeakMap<v.GenericSchema, v.GenericSchema>();

/** For input the server parses into what JSON cannot carry (a receipt's fileData into a file). */
export function documentedAs<S extends v.GenericSchema>(schema: S, wire: v.GenericSchema): S {
  WIRE.set(schema, wire);
  return schema;
}

export function wireSchema(schema: v.GenericSchema): v.GenericSchema {
  return WIRE.get(schema) ?? schema;
}

function refusal(issues: readonly v.BaseIssue<unknown>[]): AppError {
  const first = issues[0]?.message;
  if (isErrorCode(first)) return new AppError(first);
  const fields = [...new Set(issues.map((issue) => v.getDotPath(issue)).filter((p) => p !== null))];
  return new AppError('VALIDATION_FAILED', fields.length > 0 ? { fields } : {});
}

export function parseInput<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (!result.success) throw refusal(result.issues);
  return result.output;
}

/** Every refusal and failure is `{ error, code }` in the caller's language (errors-plugin.ts). */
const REFUSED = { '4XX': ApiErrorBodySchema, '5XX': ApiErrorBodySchema } as const;

export function ok<S extends v.GenericSchema>(schema: S) {
  return { 200: schema, ...REFUSED };
}

export function described(description: string) {
  return { 200: { description }, ...REFUSED };
}

export function created<S extends v.GenericSchema>(schema: S) {
  return { 201: schema, ...REFUSED };
}

const validatorCompiler: FastifySchemaCompiler<v.GenericSchema> =
  ({ schema }) =>
  (data) => {
    const result = v.safeParse(schema, data);
    return result.success ? { value: result.output } : { error: refusal(result.issues) };
  };

const serializerCompiler: FastifySerializerCompiler<v.GenericSchema> = () => (data) =>
  JSON.stringify(data);

export const contractPlugin = fp(
  (app, _options, done) => {
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    done();
  },
  { name: 'contract' },
);
