/** Demo mode, the server with no bot token: it signs init data for a demo customer itself. */
import { documented } from './documented';
import { onOrOff, type CheckedVariables, type ParsedVariables } from './values';

export interface DemoConfig {
  /** Demo mode's autopilot operator plays the staff side (never with a BOT_TOKEN). */
  readonly demoAutopilot: boolean;
}

export function isDemoMode(config: { readonly botToken: string | undefined }): boolean {
  return config.botToken === undefined;
}

/** Tron's and Ethereum's burn addresses: valid, owned by nobody, so a demo never receives funds. */
export const DEMO_DEPOSIT_ADDRESSES = {
  trc20: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb',
  evm: '0x000000000000000000000000000000000000dEaD',
} as const;

export const DEMO_VARIABLES = {
  DEMO_AUTOPILOT: documented(
    onOrOff('DEMO_AUTOPILOT'),
    'the autopilot operator that plays the staff side a few seconds after each customer step; `off` leaves every order to you. `on` is refused with `BOT_TOKEN`: it would confirm real payments nobody checked',
    { group: 'demo', unset: '`on` in demo mode' },
  ),
};

/** The autopilot confirms payments nobody checked: never where money is real. */
export function demoProblems(env: CheckedVariables<'BOT_TOKEN' | 'DEMO_AUTOPILOT'>): string[] {
  return env.BOT_TOKEN !== undefined && env.DEMO_AUTOPILOT === 'on'
    ? [
        'DEMO_AUTOPILOT=on plays the operator in demo mode only: it would confirm real payments nobody checked. Unset it, or unset BOT_TOKEN',
      ]
    : [];
}

export function demoConfigOf(
  variables: ParsedVariables<typeof DEMO_VARIABLES>,
  demo: boolean,
): DemoConfig {
  return { demoAutopilot: demo && variables.DEMO_AUTOPILOT !== 'off' };
}
