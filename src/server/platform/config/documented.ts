/**
 * What a reader is told about each environment variable, kept in the variable's own schema:
 * valibot's `description` for what it means, `metadata` for where it is listed and what happens
 * when it is unset. docs/configuration.md is generated from these schemas (reference.ts, `npm run
 * docs:config`) and a test fails when the file differs, so the reference cannot say one thing
 * while the check does another.
 */
import * as v from 'valibot';

/** The reference's sections, in the order it lists them. */
export const VARIABLE_GROUPS = {
  server: 'The server',
  storage: 'Database and files',
  telegram: 'Telegram and the bot',
  operators: 'Operators and identity',
  orders: 'Orders',
  deposits: 'Deposits and payouts',
  bank: 'The default bank account',
  chain: 'Chain checks',
  rates: 'Rates from the market',
  demo: 'Demo mode',
  observability: 'Logs and metrics',
} as const;

export type VariableGroup = keyof typeof VARIABLE_GROUPS;

// A type, not an interface: valibot's metadata takes a record, which an interface is not.
export type VariableDoc = {
  readonly group: VariableGroup;
  /**
   * What the server does when the variable is unset, where the schema's own default does not
   * say it: the variable has none, or the value is worked out from other variables.
   */
  readonly unset?: string;
  /**
   * The family the variable is one of, written with placeholders (`CHAIN_RPC_<NETWORK>`): the
   * reference writes a family once, naming its members, instead of a row each.
   */
  readonly family?: string;
};

/** The values a whole number may take, shown beside its description. */
export type VariableRange = {
  readonly range: readonly [min: number, max: number];
};

/** A variable's schema with what the reference says of it; parsing is unchanged. */
export function documented<TSchema extends v.GenericSchema<string | undefined, unknown>>(
  schema: TSchema,
  description: string,
  doc: VariableDoc,
) {
  return v.pipe(schema, v.description(description), v.metadata(doc));
}

/** A schema's range for the reference (its own check uses the same two numbers). */
export function withRange<TSchema extends v.GenericSchema<string | undefined, unknown>>(
  schema: TSchema,
  min: number,
  max: number,
) {
  return v.pipe(schema, v.metadata({ range: [min, max] } satisfies VariableRange));
}
