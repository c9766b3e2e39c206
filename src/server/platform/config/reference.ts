/**
 * docs/configuration.md, written from the schemas that check the environment, so what a reader is
 * told and what the server does have one source. `npm run docs:config` writes it; a test fails
 * when it differs. A family (`CHAIN_RPC_<NETWORK>`) is one row.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import * as v from 'valibot';
import { ChainVariablesSchema } from './chain-config';
import { EnvVariablesSchema } from './config';
import {
  VARIABLE_GROUPS,
  type VariableDoc,
  type VariableGroup,
  type VariableRange,
} from './documented';

export const REFERENCE_PATH = path.resolve(
  import.meta.dirname,
  '../../../../docs/configuration.md',
);

type VariableSchema = v.GenericSchema<string | undefined, unknown>;

interface Variable {
  readonly name: string;
  readonly description: string;
  readonly doc: VariableDoc;
  /** As written in the table; '' when nothing happens. */
  readonly unset: string;
  /** A range or a list of values; '' when nothing. */
  readonly accepts: string;
}

interface Row {
  readonly name: string;
  readonly unset: string;
  readonly meaning: string;
}

const code = (text: string) => `\`${text}\``;

function variableOf(name: string, schema: VariableSchema): Variable {
  const description = v.getDescription(schema);
  const metadata: Partial<VariableDoc & VariableRange> = v.getMetadata(schema);
  if (description === undefined || metadata.group === undefined) {
    throw new Error(`${name} has no description or group: wrap its schema in documented()`);
  }
  const { group, unset, family, range } = metadata;
  const fallback: unknown = 'default' in schema ? schema.default : undefined;
  let shown = '';
  if (unset !== undefined) shown = unset;
  else if (fallback === '') shown = 'none';
  else if (typeof fallback === 'string') shown = code(fallback);
  const wrapped: unknown = 'wrapped' in schema ? schema.wrapped : undefined;
  const options =
    typeof wrapped === 'object' && wrapped !== null && 'options' in wrapped
      ? (wrapped.options as readonly string[])
      : undefined;
  let accepts = '';
  if (range !== undefined) accepts = `From ${range[0]} to ${range[1]}.`;
  else if (options !== undefined) accepts = `One of ${options.map(code).join(', ')}.`;
  return {
    name,
    description,
    doc: { group, ...(family === undefined ? {} : { family }) },
    unset: shown,
    accepts,
  };
}

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);
const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const meaningOf = (description: string, ...more: string[]) =>
  [sentence(capitalised(description)), ...more.filter((part) => part !== '')].join(' ');

function placesOf(family: string, name: string): string[] | undefined {
  const pattern = family
    .split(/<[A-Z]+>/)
    .map((part) => part.replace(/[^A-Z0-9_]/g, ''))
    .join('([A-Z0-9]+)');
  return new RegExp(`^${pattern}$`).exec(name)?.slice(1);
}

/** "For TRC20, BEP20, …." or, with two placeholders, "For USDT on BEP20, …; USDC on …." */
function membersOf(family: string, members: readonly Variable[]): string {
  const places = members.map((member) => {
    const found = placesOf(family, member.name);
    if (found === undefined) throw new Error(`${member.name} is not of the family ${family}`);
    return found;
  });
  if (places.every((found) => found.length === 1)) return `For ${places.join(', ')}.`;
  const byFirst = new Map<string, string[]>();
  for (const [first = '', second = ''] of places) {
    byFirst.set(first, [...(byFirst.get(first) ?? []), second]);
  }
  const groups = [...byFirst].map(([first, seconds]) => `${first} on ${seconds.join(', ')}`);
  return `For ${groups.join('; ')}.`;
}

/** A family's row: its members' defaults, each member's own when they differ. */
function familyRow(family: string, members: readonly Variable[]): Row {
  const [first] = members;
  if (first === undefined) throw new Error(`the family ${family} has no member`);
  if (members.some((member) => member.description !== first.description)) {
    throw new Error(`the members of ${family} must share one description`);
  }
  const withDefault = members.filter((member) => member.unset !== '');
  const defaults = new Set(withDefault.map((member) => member.unset));
  const unset =
    defaults.size <= 1
      ? [...defaults].join('')
      : withDefault
          .map((member) => `${placesOf(family, member.name)?.join('_') ?? ''} ${member.unset}`)
          .join(', ');
  const accepts = members.find((member) => member.accepts !== '')?.accepts ?? '';
  return {
    name: family,
    unset,
    meaning: meaningOf(first.description, membersOf(family, members), accepts),
  };
}

function sections(variables: readonly Variable[]): Map<VariableGroup, Row[]> {
  const rows = new Map<VariableGroup, Row[]>(
    Object.keys(VARIABLE_GROUPS).map((group) => [group as VariableGroup, []]),
  );
  const done = new Set<string>();
  for (const variable of variables) {
    const { family, group } = variable.doc;
    if (family !== undefined && done.has(family)) continue;
    const row =
      family === undefined
        ? {
            name: variable.name,
            unset: variable.unset,
            meaning: meaningOf(variable.description, variable.accepts),
          }
        : familyRow(
            family,
            variables.filter((other) => other.doc.family === family),
          );
    if (family !== undefined) done.add(family);
    rows.get(group)?.push(row);
  }
  return rows;
}

const cell = (text: string) => text.replaceAll('|', '\\|');

const INTRO = `# Configuration

<!-- Written by \`npm run docs:config\` from the schemas in src/server/platform/config/ (config.ts,
chain-config.ts): change a variable's description there, not here. A test fails when this file
differs from what they write. -->

Everything is read from the environment at start-up and checked: a bad value stops the server
with one line per problem, every problem at once. No variable is needed to try the app (demo
mode). A value is trimmed, and a blank one counts as unset. A name that looks like a chain
variable but names no network or pair (\`CHAIN_RPC_ETH\`) is refused rather than ignored.

A family of variables (\`CHAIN_RPC_<NETWORK>\`) is one row, which names its members and, where
they differ, the default of each.
`;

/** Formatted as Prettier formats docs/. */
export async function configurationReference(): Promise<string> {
  const schemas: Record<string, VariableSchema> = {
    ...ChainVariablesSchema.entries,
    ...EnvVariablesSchema.entries,
  };
  const variables = Object.entries(schemas).map(([name, schema]) => variableOf(name, schema));
  const parts = [INTRO];
  for (const [group, rows] of sections(variables)) {
    if (rows.length === 0) continue;
    parts.push(`## ${VARIABLE_GROUPS[group]}\n`);
    parts.push('| variable | when unset | meaning |\n| --- | --- | --- |');
    for (const row of rows) {
      parts.push(`| ${code(row.name)} | ${cell(row.unset || '—')} | ${cell(row.meaning)} |`);
    }
    parts.push('');
  }
  const options = (await prettier.resolveConfig(REFERENCE_PATH)) ?? {};
  return prettier.format(parts.join('\n'), { ...options, filepath: REFERENCE_PATH });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  fs.mkdirSync(path.dirname(REFERENCE_PATH), { recursive: true });
  fs.writeFileSync(REFERENCE_PATH, await configurationReference());
  console.log(`wrote ${path.relative(process.cwd(), REFERENCE_PATH)}`);
}
