/** The value schemas the concerns' variables are built from; each message names its variable. */
import * as v from 'valibot';
import { checkWalletAddress } from '../../../shared/addresses';
import { withRange } from './documented';

export type Env = Readonly<Record<string, string | undefined>>;

export type VariableEntries = Record<string, v.GenericSchema<string | undefined, unknown>>;

export type ParsedVariables<TEntries extends v.ObjectEntries> = v.InferOutput<
  v.ObjectSchema<TEntries, undefined>
>;

/** A bad one keeps its value, so it still counts as set. */
export type CheckedVariables<TName extends string> = Partial<Record<TName, unknown>>;

/** Every value trimmed, a blank one as if unset. */
export function presentVariables(env: Env): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env)
      .map(([name, value]) => [name, value?.trim()] as const)
      .filter(
        (entry): entry is readonly [string, string] => entry[1] !== undefined && entry[1] !== '',
      ),
  );
}

export const text = v.string();

/** A comma-separated list, each entry checked by `entry`: one message per entry that is wrong. */
export const commaList = <T extends v.GenericSchema<string, unknown>>(entry: T) =>
  v.pipe(
    text,
    v.transform((list) =>
      list
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== ''),
    ),
    v.array(entry),
  );

export const wholeNumber = (name: string, fallback: number, min: number, max: number) =>
  withRange(
    v.optional(
      v.pipe(
        text,
        v.check(
          (raw) => /^\d+$/.test(raw) && Number(raw) >= min && Number(raw) <= max,
          (issue) => `${name} must be a whole number from ${min} to ${max}, got "${issue.input}"`,
        ),
        v.transform(Number),
      ),
      String(fallback),
    ),
    min,
    max,
  );

/** A switch, `on` or `off`; unset, the caller's default. */
export const onOrOff = (name: string) =>
  v.optional(
    v.picklist(['on', 'off'], (issue) => `${name} must be on or off, got "${String(issue.input)}"`),
  );

export const walletAddress = (name: string, network: 'TRC20' | 'ERC20') =>
  v.optional(
    v.pipe(
      text,
      v.check(
        (address) => checkWalletAddress(network, address) === null,
        `${name} is not a valid ${network === 'TRC20' ? 'Tron' : 'EVM'} address`,
      ),
    ),
  );
