/** What the app learned about where it runs, decided once at start-up. */
export interface AppEnvironment {
  /** True inside a real Telegram client; false in a plain browser with the demo mock. */
  readonly inTelegram: boolean;
  readonly demo: boolean;
  readonly supportUrl: string;
  readonly appearance: 'light' | 'dark';
  readonly platform: 'ios' | 'base';
}
