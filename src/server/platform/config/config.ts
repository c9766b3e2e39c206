/**
 * The configuration, read from the environment and checked at start-up. Each concern's file holds
 * its variables, their checks and their documentation; this one composes them. Every variable has
 * a demo default, and a bad value stops the server with one line per problem, all at once.
 */
import * as v from 'valibot';
import { bankConfigOf, bankProblems, BANK_VARIABLES, type BankConfig } from './bank-config';
import { botConfigOf, botProblems, BOT_VARIABLES, type BotConfig } from './bot-config';
import {
  chainCheckProblems,
  chainChecksConfigOf,
  parseChainConfig,
  type ChainChecksConfig,
} from './chain-config';
import { CHAIN_CHECK_VARIABLES } from './chain-variables';
import { storageConfigOf, DATABASE_VARIABLES, type StorageConfig } from './database-config';
import {
  demoConfigOf,
  demoProblems,
  isDemoMode,
  DEMO_VARIABLES,
  type DemoConfig,
} from './demo-config';
import { limitsConfigOf, LIMITS_VARIABLES, type LimitsConfig } from './limits-config';
import { ratesConfigOf, RATES_VARIABLES, type RatesConfig } from './rates-config';
import { serverConfigOf, SERVER_VARIABLES, type ServerConfig } from './server-config';
import { presentVariables, type CheckedVariables, type Env } from './values';

export type { DatabaseConfig } from './database-config';
export { DEMO_DEPOSIT_ADDRESSES, isDemoMode } from './demo-config';
export { logsAt } from './server-config';

export interface AppConfig
  extends
    ServerConfig,
    StorageConfig,
    BotConfig,
    ChainChecksConfig,
    LimitsConfig,
    RatesConfig,
    BankConfig,
    DemoConfig {}

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Every variable the server reads but the per-network chain ones (chain-config.ts). */
export const EnvVariablesSchema = v.object({
  ...SERVER_VARIABLES,
  ...DATABASE_VARIABLES,
  ...BOT_VARIABLES,
  ...CHAIN_CHECK_VARIABLES,
  ...LIMITS_VARIABLES,
  ...RATES_VARIABLES,
  ...BANK_VARIABLES,
  ...DEMO_VARIABLES,
});

type EnvVariables = v.InferOutput<typeof EnvVariablesSchema>;

const variablesOf = (value: unknown): CheckedVariables<keyof EnvVariables> =>
  typeof value === 'object' && value !== null ? value : {};

/** The rules between variables run even when a variable is bad, so every problem is listed. */
const EnvSchema = v.pipe(
  v.record(v.string(), v.optional(v.string())),
  v.transform(presentVariables),
  EnvVariablesSchema,
  v.rawCheck(({ dataset, addIssue }) => {
    const env = variablesOf(dataset.value);
    const problems = [
      ...chainCheckProblems(env),
      ...botProblems(env),
      ...demoProblems(env),
      ...bankProblems(env),
    ];
    for (const message of problems) addIssue({ message });
  }),
);

/** Reads and checks every variable; throws ConfigError listing all problems at once. */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): AppConfig {
  const result = v.safeParse(EnvSchema, env);
  const chain = parseChainConfig(env);
  const problems = [
    ...(result.success ? [] : result.issues.map((issue) => issue.message)),
    ...(chain.ok ? [] : chain.problems),
  ];
  if (!result.success || !chain.ok || problems.length > 0) throw new ConfigError(problems);
  const variables = result.output;
  const demo = isDemoMode({ botToken: variables.BOT_TOKEN });
  return {
    ...serverConfigOf(variables, { cwd, demo }),
    ...storageConfigOf(variables, cwd),
    ...botConfigOf(variables),
    ...chainChecksConfigOf(variables, chain.config),
    ...limitsConfigOf(variables),
    ...ratesConfigOf(variables),
    ...bankConfigOf(variables),
    ...demoConfigOf(variables, demo),
  };
}
