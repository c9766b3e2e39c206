/**
 * The API lists itself: `GET /api/openapi.json` is a valid OpenAPI 3 document generated from the
 * routes' own schemas, and it is complete, every route the server answers is in it with what it
 * takes (its path's parameters, a body where it reads one) and what it answers (the answer's
 * schema, and the `{ error, code }` of a refusal).
 */
import { API_PATHS } from '../../../src/shared/api';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app';

interface Operation {
  readonly tags?: readonly string[];
  readonly parameters?: readonly { readonly in: string; readonly name: string }[];
  readonly requestBody?: unknown;
  readonly responses: Record<string, { readonly content?: Record<string, { schema?: unknown }> }>;
}
type Document = { readonly paths: Record<string, Record<string, Operation>> };

let t: TestApp;
let document: Document;
beforeAll(async () => {
  // With a webhook, the bot's route is registered too: the document must list it.
  t = await createTestApp({
    botToken: '123456:TEST-TOKEN',
    webhookUrl: 'https://example.org/telegram/webhook',
  });
  const res = await t.app.inject({ method: 'GET', url: API_PATHS.openApi });
  expect(res.statusCode).toBe(200);
  document = res.json<Document>();
});
afterAll(async () => {
  await t.close();
});

/**
 * Every route the server answers, as `METHOD /path/{param}`, HEAD aside (Fastify adds it): read
 * from Fastify's own tree of routes, where each line adds its part to its parent's path.
 */
function serverRoutes(): string[] {
  const routes: string[] = [];
  const prefixes: string[] = [];
  for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?/.exec(line);
    if (match === null) continue;
    const [, indent = '', part = '', methods] = match;
    const depth = indent.length / 4;
    const path = (prefixes[depth - 1] ?? '') + part;
    prefixes[depth] = path;
    for (const method of methods?.split(', ') ?? []) {
      if (method !== 'HEAD') routes.push(`${method} ${path.replace(/:(\w+)/g, '{$1}')}`);
    }
  }
  return routes.filter((route) => !route.endsWith(' *') && !route.endsWith(' /')).sort();
}

function documentedRoutes(): string[] {
  return Object.entries(document.paths)
    .flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    )
    .sort();
}

describe('GET /api/openapi.json', () => {
  it('is a valid OpenAPI 3 document', async () => {
    const result = await new Validator().validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it("lists every route the server answers, and only those (the app's files aside)", () => {
    const routes = serverRoutes();
    expect(routes.length).toBeGreaterThan(25);
    expect(documentedRoutes()).toEqual(routes);
  });

  it('gives each call its tag, its path parameters, its body and its answers, refusals included', () => {
    for (const [path, operations] of Object.entries(document.paths)) {
      const pathParameters = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      for (const [method, operation] of Object.entries(operations)) {
        const name = `${method.toUpperCase()} ${path}`;
        expect(operation.tags, name).toHaveLength(1);
        const declared = (operation.parameters ?? [])
          .filter((parameter) => parameter.in === 'path')
          .map((parameter) => parameter.name)
          .sort();
        expect(declared, name).toEqual(pathParameters);
        if (method === 'put') expect(operation.requestBody, name).toBeDefined();
        const success = Object.keys(operation.responses).filter((status) => /^2/.test(status));
        expect(success, name).not.toHaveLength(0);
        expect(operation.responses['4XX'], name).toBeDefined();
      }
    }
  });

  it("writes a customer's call as the app sends it: the order to create, the history's page", () => {
    const create = document.paths['/api/orders/create']?.['post'];
    const body = JSON.stringify(create?.requestBody);
    for (const field of ['type', 'paymentMethod', 'amount', 'cryptoCurrency', 'network']) {
      expect(body).toContain(`"${field}"`);
    }
    const history = document.paths['/api/orders/history']?.['get'];
    expect(history?.parameters?.map((p) => p.name).sort()).toEqual(['limit', 'offset', 'status']);
    const answer = JSON.stringify(history?.responses['200']?.content?.['application/json']);
    expect(answer).toContain('"orders"');
  });
});
