/**
 * What a reader is told about each variable, kept in its own schema (`description`, `metadata`):
 * docs/configuration.md is generated from them, so it cannot say one thing while the check does
 * another.
 */
import * as v from 'valibot';

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
  /** Where the schema's default does not say it: none, or worked out from other variables. */
  readonly unset?: string;
  /** `CHAIN_RPC_<NETWORK>`: written once in the reference, naming its members. */
  readonly family?: string;
};

export type VariableRange = {
  readonly range: readonly [min: number, max: number];
};

export function documented<TSchema extends v.GenericSchema<string | undefined, unknown>>(
  schema: TSchema,
  description: string,
  doc: VariableDoc,
) {
  return v.pipe(schema, v.description(description), v.metadata(doc));
}

/** Its own check uses the same two numbers. */
export function withRange<TSchema extends v.GenericSchema<string | undefined, unknown>>(
  schema: TSchema,
  min: number,
  max: number,
) {
  return v.pipe(schema, v.metadata({ range: [min, max] } satisfies VariableRange));
}
