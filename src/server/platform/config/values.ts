/** What the configuration's schemas are built on. */
import * as v from 'valibot';

export type Env = Readonly<Record<string, string | undefined>>;

/** The variables one concern reads, each with its own check. */
export type VariableEntries = Record<string, v.GenericSchema<string | undefined, unknown>>;

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

/** A variable's value: presentVariables has trimmed it and dropped it when blank. */
export const text = v.string();
