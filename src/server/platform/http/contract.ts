/**
 * Routes declare their contract: a route's `schema` names the valibot
 * schemas of its `params`, `querystring`, `body` and `response`, the same schemas of src/shared
 * the app's forms use. Fastify checks the request against them before the handler runs, and the
 * handler receives the parsed, typed input (`ValibotTypeProvider`); the OpenAPI document
 * (platform/http/openapi.ts) is generated from them.
 *
 * A refused request answers our codes, never Fastify's: VALIDATION_FAILED with the refused
 * fields, or the error code a schema gives as its first refusal's message (an order id that is no
 * UUID names no order: ORDER_NOT_FOUND, like an order that does not exist; src/shared/schemas/
 * params.ts). Answers are written as they are (JSON.stringify, as without a schema): a response
 * schema documents, it does not filter.
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

/** Fastify's types of a route's input and output, read from its valibot schemas. */
export interface ValibotTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends v.GenericSchema ? v.InferOutput<this['schema']> : unknown;
  // What a handler answers: read-only like every answer type of src/shared.
  serializer: this['schema'] extends v.GenericSchema ? ResponseOf<this['schema']> : unknown;
}

/** A Fastify instance whose routes take valibot schemas and hand their handlers typed input. */
export type ContractInstance = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ValibotTypeProvider
>;

const WIRE = new WeakMap<v.GenericSchema, v.GenericSchema>();

/**
 * `schema`, documented as `wire`: what a client sends where the server parses it into something
 * JSON cannot carry (a receipt's fileData, decoded into a file as the body arrives).
 */
export function documentedAs<S extends v.GenericSchema>(schema: S, wire: v.GenericSchema): S {
  WIRE.set(schema, wire);
  return schema;
}

/** The schema a document shows for `schema` (documentedAs). */
export function wireSchema(schema: v.GenericSchema): v.GenericSchema {
  return WIRE.get(schema) ?? schema;
}

/** The input refused, as the API answers it. */
function refusal(issues: readonly v.BaseIssue<unknown>[]): AppError {
  const first = issues[0]?.message;
  if (isErrorCode(first)) return new AppError(first);
  const fields = [...new Set(issues.map((issue) => v.getDotPath(issue)).filter((p) => p !== null))];
  return new AppError('VALIDATION_FAILED', fields.length > 0 ? { fields } : {});
}

/** `input` parsed by `schema`, or refused as the API answers it. */
export function parseInput<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (!result.success) throw refusal(result.issues);
  return result.output;
}

/** Every refusal and failure is `{ error, code }` in the caller's language (errors-plugin.ts). */
const REFUSED = { '4XX': ApiErrorBodySchema, '5XX': ApiErrorBodySchema } as const;

/** A route's answers: `schema` with 200, and its refusals. */
export function ok<S extends v.GenericSchema>(schema: S) {
  return { 200: schema, ...REFUSED };
}

/** A route's answers: something other than JSON (a file, a text) said in words, and its refusals. */
export function described(description: string) {
  return { 200: { description }, ...REFUSED };
}

/** A route's answers: `schema` with 201 (something was created), and its refusals. */
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

/** The compilers of every route's schemas, for the whole server. */
export const contractPlugin = fp(
  (app, _options, done) => {
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    done();
  },
  { name: 'contract' },
);
