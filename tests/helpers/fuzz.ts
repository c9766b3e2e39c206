/**
 * The pieces of the HTTP fuzz (tests/server/system/fuzz.test.ts): a seeded PRNG, so that a
 * failing run reproduces from its seed; the hostile values put in place of body fields, path
 * segments and query values; and the check every answer must pass (never a 500, every
 * error answer `{ error, code }` with a stable code).
 */
import type { LightMyRequestResponse } from 'fastify';
import { isErrorCode } from '../../src/shared/errors';

// --- A seeded PRNG (mulberry32): the same seed makes the same requests ---

export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  /** `k` distinct items in a random order (all of them when there are fewer). */
  sample<T>(items: readonly T[], k: number): T[];
  chance(p: number): boolean;
  hex(length: number): string;
  /** A version 4 UUID made of the PRNG's bits. */
  uuid(): string;
}

export function seededRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  const hex = (length: number): string =>
    Array.from({ length }, () => '0123456789abcdef'.charAt(int(16))).join('');
  return {
    next,
    int,
    pick<T>(items: readonly T[]): T {
      const item = items[int(items.length)];
      if (item === undefined) throw new Error('pick from an empty list');
      return item;
    },
    sample<T>(items: readonly T[], k: number): T[] {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = int(i + 1);
        [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
      }
      return copy.slice(0, k);
    },
    chance: (p) => next() < p,
    hex,
    uuid: () =>
      `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'.charAt(int(4))}${hex(3)}-${hex(12)}`.toLowerCase(),
  };
}

// --- Hostile values ---

/**
 * A value put where a JSON field's value goes, as JSON text, so that numbers JSON.stringify
 * cannot write (1e400, a 400-digit integer: both parse to Infinity) reach the server's parser.
 * `json` undefined: the field is left out.
 */
export interface FuzzValue {
  readonly label: string;
  readonly json: string | undefined;
}

const text = (label: string, value: string): FuzzValue => ({
  label,
  json: JSON.stringify(value),
});
const raw = (label: string, json: string): FuzzValue => ({ label, json });

/** The characters a text field, an id or a query value must never turn into a 500. */
export const CONTROL_CHARACTERS: readonly (readonly [label: string, char: string])[] = [
  ['NUL', '\u0000'],
  ['U+0001', '\u0001'],
  ['U+001F', '\u001f'],
  ['DEL', '\u007f'],
  ['C1 U+0085', '\u0085'],
  ['lone surrogate U+D800', '\ud800'],
  ['lone surrogate U+DFFF', '\udfff'],
  ['RTL override', '\u202e'],
  ['BOM', '\ufeff'],
  ['CR LF', '\r\n'],
];

const LONG = 'x'.repeat(10_000);
const DIGITS_400 = '9'.repeat(400);

function nested(depth: number, open: string, close: string, inner: string): string {
  return open.repeat(depth) + inner + close.repeat(depth);
}

/** Values of every JSON type for any field: wrong types, hostile strings, extreme numbers. */
export const GENERIC_VALUES: readonly FuzzValue[] = [
  raw('null', 'null'),
  raw('true', 'true'),
  raw('false', 'false'),
  raw('[]', '[]'),
  raw('["a","b"]', '["a","b"]'),
  raw('[1]', '[1]'),
  raw('{}', '{}'),
  raw('{"a":1}', '{"a":1}'),
  raw('nested __proto__', '{"__proto__":{"polluted":true}}'),
  raw('nested constructor.prototype', '{"constructor":{"prototype":{"polluted":true}}}'),
  raw('nested prototype', '{"prototype":{"polluted":true}}'),
  raw('{"$gt":""}', '{"$gt":""}'),
  raw('arrays nested 2000 deep', nested(2_000, '[', ']', '1')),
  raw('objects nested 500 deep', nested(500, '{"a":', '}', '1')),
  raw('0', '0'),
  raw('-0', '-0'),
  raw('-1', '-1'),
  raw('0.5', '0.5'),
  raw('1e308', '1e308'),
  raw('-1e308', '-1e308'),
  raw('1e400 (Infinity)', '1e400'),
  raw('-1e400 (-Infinity)', '-1e400'),
  raw('400 digits (Infinity)', DIGITS_400),
  raw('2**53+1', '9007199254740993'),
  raw('5e-324', '5e-324'),
  raw('1e-7', '1e-7'),
  raw('1e21', '1e21'),
  raw('30 digits with decimals', '123456789012345678901234567890.123456789'),
  text('empty string', ''),
  text('spaces', '   '),
  ...CONTROL_CHARACTERS.map(([label, char]) => text(label, char)),
  text('NUL inside', 'ab\u0000cd'),
  text('10 000 characters', LONG),
  text('"NaN"', 'NaN'),
  text('"Infinity"', 'Infinity'),
  text('"-Infinity"', '-Infinity'),
  text('"1e308"', '1e308'),
  text('"-1"', '-1'),
  text('"-0"', '-0'),
  text('"0x1F"', '0x1F'),
  text('400-digit string', DIGITS_400),
  text('"1,5"', '1,5'),
  text('SQL', "' OR 1=1 --"),
  text('"%00"', '%00'),
  text('path traversal', '../../../etc/passwd'),
  text('"__proto__"', '__proto__'),
  text('"constructor"', 'constructor'),
  text('"null"', 'null'),
  text('emoji', '💸🇷🇺'),
  text('combining marks', 'e\u0301\u0301\u0301'),
  text('HTML', '<script>alert(1)</script>'),
];

/** Mutations of one field made from its valid value: the value almost right, or in the wrong type. */
export function mutationsOf(value: unknown): FuzzValue[] {
  const out: FuzzValue[] = [{ label: 'missing', json: undefined }];
  if (typeof value === 'string') {
    out.push(
      text('value+NUL', `${value}\u0000`),
      text('NUL+value', `\u0000${value}`),
      text('value with NUL inside', `${value.slice(0, 1)}\u0000${value.slice(1)}`),
      text('value+U+0001', `${value}\u0001`),
      text('value+DEL', `${value}\u007f`),
      text('value+lone surrogate', `${value}\ud800`),
      text('RTL override+value', `\u202e${value}`),
      text('value padded with spaces', `  ${value}  `),
      text('value repeated to 10 000 characters', value.repeat(Math.ceil(10_000 / value.length))),
      raw('[value]', JSON.stringify([value])),
      raw('{value}', JSON.stringify({ value })),
    );
    if (value.toLowerCase() !== value) out.push(text('value in lower case', value.toLowerCase()));
    if (value.toUpperCase() !== value) out.push(text('value in upper case', value.toUpperCase()));
    if (value.trim() !== '' && Number.isFinite(Number(value))) {
      out.push(raw('value as a number', String(Number(value))));
    }
  } else if (typeof value === 'number') {
    out.push(
      text('value as a string', String(value)),
      text('value as a string+NUL', `${value}\u0000`),
      raw('-value', String(-value)),
      raw('value×1e9', String(value * 1e9)),
      raw('value+1e-9', String(value + 1e-9)),
      raw('[value]', JSON.stringify([value])),
    );
  }
  return out;
}

/**
 * A JSON object's text with `key` set to `value` (or left out). A null-prototype copy lets
 * `__proto__` be an own key; the slot's text is then swapped for the value's raw JSON.
 */
export function jsonWith(
  base: Readonly<Record<string, unknown>>,
  key: string,
  value: FuzzValue,
): string {
  const SLOT = '@@fuzz-slot-7f3a@@';
  const copy = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of Object.entries(base)) if (k !== key) copy[k] = v;
  if (value.json === undefined) return JSON.stringify(copy);
  copy[key] = SLOT;
  return JSON.stringify(copy).replace(JSON.stringify(SLOT), () => value.json ?? 'null');
}

/** `valid` (a JSON object's text) with `members` written before its own. */
function withMembersFirst(valid: string, members: string): string {
  return valid === '{}' ? `{${members}}` : `{${members},${valid.slice(1)}`;
}

/** Bodies that are not valid JSON, or valid JSON that is not an object, or hostile keys. */
export function malformedBodies(
  valid: string,
): readonly (readonly [label: string, body: string])[] {
  const manyKeys = Array.from({ length: 5_000 }, (_, i) => `"k${i}":${i}`).join(',');
  return [
    ['malformed JSON: {', '{'],
    ['malformed JSON: truncated body', valid.slice(0, Math.ceil(valid.length / 2))],
    ['malformed JSON: trailing garbage', `${valid}}`],
    ['malformed JSON: trailing comma', valid === '{}' ? '{,}' : valid.replace(/}$/, ',}')],
    ['malformed JSON: single quotes', "{'a':1}"],
    ['malformed JSON: unquoted key', '{a:1}'],
    ['malformed JSON: NaN', '{"a":NaN}'],
    ['malformed JSON: leading zero', '{"a":01}'],
    ['malformed JSON: 1e', '{"a":1e}'],
    ['malformed JSON: raw NUL in a string', '{"a":"x\u0000y"}'],
    ['malformed JSON: raw U+0001 in a string', '{"a":"x\u0001y"}'],
    ['malformed JSON: bad escape \\x41', '{"a":"\\x41"}'],
    ['malformed JSON: short escape \\u00', '{"a":"\\u00"}'],
    ['malformed JSON: comment', `/* c */ ${valid}`],
    ['malformed JSON: undefined', 'undefined'],
    ['malformed JSON: only NUL', '\u0000'],
    ['JSON null', 'null'],
    ['JSON array', '[]'],
    ['JSON array of the body', `[${valid}]`],
    ['JSON string', '"body"'],
    ['JSON number', '1'],
    ['JSON true', 'true'],
    [
      'duplicate keys, the hostile one last',
      valid.replace(
        /}$/,
        valid === '{}' ? '"type":"SELL","type":[]}' : ',"type":"SELL","type":[]}',
      ),
    ],
    ['top-level __proto__', withMembersFirst(valid, '"__proto__":{"polluted":true}')],
    [
      'top-level constructor.prototype',
      withMembersFirst(valid, '"constructor":{"prototype":{"x":1}}'),
    ],
    ['top-level prototype', withMembersFirst(valid, '"prototype":{"polluted":true}')],
    ['escaped \\u005f_proto__ key', withMembersFirst(valid, '"\\u005f_proto__":{"polluted":true}')],
    ['NUL key', withMembersFirst(valid, '"\\u0000":1')],
    ['5000 extra keys', withMembersFirst(valid, manyKeys)],
    ['arrays nested 5000 deep', nested(5_000, '[', ']', '')],
  ];
}

/** The same valid body sent in odd encodings and under odd content types. */
export function oddEncodings(
  valid: string,
): readonly (readonly [label: string, contentType: string | null, payload: string | Buffer])[] {
  const bytes = Buffer.from(valid, 'utf8');
  // Invalid UTF-8 (a lone continuation byte, 0xFF, an overlong NUL) inside the first string value.
  const quote = bytes.indexOf(0x22, bytes.indexOf(0x3a));
  const invalidUtf8 = Buffer.concat([
    bytes.subarray(0, quote + 1),
    Buffer.from([0x80, 0xff, 0xfe, 0xc0, 0x80]),
    bytes.subarray(quote + 1),
  ]);
  return [
    [
      'charset=utf-16, UTF-16 bytes',
      'application/json; charset=utf-16',
      Buffer.from(valid, 'utf16le'),
    ],
    ['charset=utf-16, UTF-8 bytes', 'application/json; charset=utf-16', valid],
    ['charset=latin1', 'application/json; charset=latin1', valid],
    ['text/plain', 'text/plain', valid],
    ['text/plain; charset=utf-8', 'text/plain; charset=utf-8', valid],
    ['x-www-form-urlencoded', 'application/x-www-form-urlencoded', 'a=1&b=%00&__proto__[x]=1'],
    [
      'multipart/form-data',
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
    ],
    ['application/octet-stream', 'application/octet-stream', bytes],
    ['no content-type with a body', null, valid],
    ['APPLICATION/JSON in capitals', 'APPLICATION/JSON', valid],
    ['application/jsonx', 'application/jsonx', valid],
    ['application/vnd.api+json', 'application/vnd.api+json', valid],
    ['content-type with junk parameters', 'application/json; ;;=; charset', valid],
    ['UTF-8 BOM', 'application/json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes])],
    ['invalid UTF-8 bytes in a string', 'application/json', invalidUtf8],
    ['empty body as JSON', 'application/json', ''],
    ['whitespace body as JSON', 'application/json', ' \r\n\t '],
  ];
}

/**
 * Path segments as sent on the wire (already percent-encoded): malformed escapes, encoded
 * control characters, overlong forms, traversal, and segments far longer than any id.
 */
export const PATH_SEGMENTS: readonly (readonly [label: string, segment: string])[] = [
  ['%00', '%00'],
  ['%01', '%01'],
  ['%1F', '%1F'],
  ['%7F', '%7F'],
  ['%C2%85 (C1)', '%C2%85'],
  ['%ZZ (malformed escape)', '%ZZ'],
  ['lone %', '%'],
  ['truncated UTF-8 escape', '%E0%A4%A'],
  ['encoded lone surrogate %ED%A0%80', '%ED%A0%80'],
  ['overlong NUL %C0%80', '%C0%80'],
  ['%FF', '%FF'],
  ['RTL override %E2%80%AE', '%E2%80%AEabc'],
  ['101 characters', 'a'.repeat(101)],
  ['5000 characters', 'a'.repeat(5_000)],
  ['..', '..'],
  ['%2e%2e', '%2e%2e'],
  ['encoded slash', 'a%2Fb'],
  ['encoded space', '%20'],
  ['+', '+'],
  ['SQL', "'%20OR%201=1--"],
  ['NaN', 'NaN'],
  ['-1', '-1'],
  ['1e308', '1e308'],
  ['__proto__', '__proto__'],
  ['constructor', 'constructor'],
  ['prototype', 'prototype'],
  ['null', 'null'],
  ['[]', '%5B%5D'],
  ['emoji', '%F0%9F%92%B8'],
];

/** Query values as sent on the wire (already percent-encoded). */
export const QUERY_VALUES: readonly (readonly [label: string, value: string])[] = [
  ['empty', ''],
  ['%00', '%00'],
  ['a%00', 'a%00'],
  ['%01', '%01'],
  ['%1F', '%1F'],
  ['%7F', '%7F'],
  ['%ED%A0%80 (lone surrogate)', '%ED%A0%80'],
  ['%E2%80%AE (RTL override)', '%E2%80%AE'],
  ['%ZZ (malformed escape)', '%ZZ'],
  ['lone %', '%'],
  ['1e308', '1e308'],
  ['-1', '-1'],
  ['-0', '-0'],
  ['NaN', 'NaN'],
  ['Infinity', 'Infinity'],
  ['400 digits', '9'.repeat(400)],
  ['2**53+1', '9007199254740993'],
  ['0x10', '0x10'],
  ['1.5', '1.5'],
  ['+1', '%2B1'],
  ['space 1', '%201'],
  ['5000 characters', 'x'.repeat(5_000)],
  ['null', 'null'],
  ['__proto__', '__proto__'],
];

/** Whole query strings (without the `?`) that bend the parser. */
export const ODD_QUERIES: readonly (readonly [label: string, query: string])[] = [
  ['only ?', ''],
  ['&&&', '&&&'],
  ['=', '='],
  ['=x (no key)', '=x'],
  ['%00=1 (NUL key)', '%00=1'],
  ['%ZZ=1 (malformed key)', '%ZZ=1'],
  ['__proto__=1', '__proto__=1'],
  ['__proto__[polluted]=1', '__proto__%5Bpolluted%5D=1'],
  ['constructor[prototype][x]=1', 'constructor%5Bprototype%5D%5Bx%5D=1'],
  ['a[]=1&a[]=2', 'a%5B%5D=1&a%5B%5D=2'],
  ['a;b=2', 'a=1;b=2'],
  ['# fragment', 'a=1#b=2'],
  ['2000 keys', Array.from({ length: 2_000 }, (_, i) => `k${i}=${i}`).join('&')],
];

/** Accept-Language values: the error message's language is picked from them. */
export const ACCEPT_LANGUAGES: readonly string[] = [
  '',
  '*',
  'en;q=abc',
  'en;q=NaN,ru;q=Infinity',
  'en;q=-1',
  'xx-YY;q=0.5, zz',
  ';;;,,,',
  'ru;q=0,en;q=0',
  'en-US,en;q=0.9,ru;q=0.8',
  'x'.repeat(4_000),
  '__proto__',
  'constructor;q=1',
];

// --- The check every answer passes ---

export type Verdict = 'ok' | '5xx' | 'not JSON' | 'no code';

/**
 * No answer is a server fault, and every refusal is `{ error: string, code: ErrorCode }` as JSON.
 * A HEAD answer has no body by definition, so only its status is checked.
 */
export function verdictOf(res: LightMyRequestResponse, method: string): Verdict {
  if (res.statusCode >= 500) return '5xx';
  if (res.statusCode < 400 || method === 'HEAD') return 'ok';
  const type = res.headers['content-type'];
  if (typeof type !== 'string' || !type.startsWith('application/json')) return 'not JSON';
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return 'not JSON';
  }
  if (typeof body !== 'object' || body === null) return 'no code';
  const { error, code } = body as { error?: unknown; code?: unknown };
  return typeof error === 'string' && error !== '' && isErrorCode(code) ? 'ok' : 'no code';
}

/** `s` cut to `max` characters with control characters made visible, for a failure report. */
export function shown(s: string, max = 160): string {
  const visible = JSON.stringify(s).slice(1, -1);
  return visible.length <= max ? visible : `${visible.slice(0, max)}… (${s.length} chars)`;
}
