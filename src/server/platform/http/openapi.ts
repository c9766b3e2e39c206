/**
 * The API as an OpenAPI 3 document, generated from the routes' own valibot schemas, so it cannot
 * drift from what they take. A check JSON Schema cannot say is left out, still made by the route.
 */
import swagger from '@fastify/swagger';
import { toJsonSchema } from '@valibot/to-json-schema';
import type { FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import type * as v from 'valibot';
import { wireSchema } from './contract';

function isValibot(schema: unknown): schema is v.GenericSchema {
  return (
    typeof schema === 'object' &&
    schema !== null &&
    (schema as { kind?: unknown }).kind === 'schema'
  );
}

/** OpenAPI 3.0 refuses the empty `required` lists JSON Schema allows. */
function withoutEmptyRequired(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutEmptyRequired);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => !(key === 'required' && Array.isArray(value) && value.length === 0))
      .map(([key, value]) => [key, withoutEmptyRequired(value)]),
  );
}

function jsonSchemaOf(schema: unknown): unknown {
  if (!isValibot(schema)) return schema;
  return withoutEmptyRequired(
    toJsonSchema(wireSchema(schema), {
      target: 'openapi-3.0',
      typeMode: 'input',
      errorMode: 'ignore',
    }),
  );
}

export function documentedSchema(schema: FastifySchema | undefined): FastifySchema | undefined {
  if (schema === undefined) return undefined;
  const { params, querystring, body, headers, response, ...rest } = schema;
  const answers =
    response === undefined
      ? undefined
      : Object.fromEntries(
          Object.entries(response as Record<string, unknown>).map(([status, answer]) => [
            status,
            jsonSchemaOf(answer),
          ]),
        );
  return {
    ...rest,
    ...(params === undefined ? {} : { params: jsonSchemaOf(params) }),
    ...(querystring === undefined ? {} : { querystring: jsonSchemaOf(querystring) }),
    ...(body === undefined ? {} : { body: jsonSchemaOf(body) }),
    ...(headers === undefined ? {} : { headers: jsonSchemaOf(headers) }),
    ...(answers === undefined ? {} : { response: answers }),
  };
}

export const openApiPlugin = fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: {
          title: 'Stablecoin exchange API',
          description:
            "The mini-app's calls (orders, rates), the operators' console and the server's own. " +
            'Identity: `Authorization: tma <Telegram init data>`. Errors: `{ error, code }`.',
          version: '1',
        },
      },
      // Registered before any route, so that it sees every one as it is added.
      transform: ({ schema, url }) => ({ url, schema: documentedSchema(schema) as FastifySchema }),
    });
  },
  { name: 'openapi', dependencies: ['contract'] },
);
