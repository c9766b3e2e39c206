/** The Telegram bot: its token and name, the operators it knows, the chat it alerts them in. */
import * as v from 'valibot';
import { LANGUAGES, type Language } from '../../../shared/api';
import { documented } from './documented';
import { commaList, text, type CheckedVariables, type ParsedVariables } from './values';

export interface BotConfig {
  /** Undefined means demo mode. */
  readonly botToken: string | undefined;
  readonly botUsername: string | undefined;
  readonly operatorIds: readonly number[];
  /** The operators who decide appeals (SENIOR_OPERATOR_IDS). */
  readonly seniorOperatorIds: readonly number[];
  readonly supportUrl: string;
  /** The chat (a group or a private chat) the bot alerts operators in; none when unset. */
  readonly operatorChatId: number | undefined;
  readonly operatorChatLanguage: Language;
  /** Where Telegram sends the bot's updates; long polling when unset. */
  readonly webhookUrl: string | undefined;
  readonly telegramApiRoot: string;
}

/** Telegram user ids separated by commas, none by default: one message per id that is not one. */
const telegramIds = (name: string) =>
  v.optional(
    commaList(
      v.pipe(
        text,
        v.regex(
          /^\d{1,15}$/,
          (issue) => `${name} must be Telegram user ids separated by commas, got "${issue.input}"`,
        ),
        v.transform(Number),
      ),
    ),
    '',
  );

const address = (name: string, pattern: RegExp, must: string) =>
  v.pipe(
    text,
    v.regex(pattern, (issue) => `${name} must be ${must}, got "${issue.input}"`),
  );

export const BOT_VARIABLES = {
  BOT_TOKEN: documented(
    v.optional(
      v.pipe(
        text,
        v.regex(
          /^\d{5,}:[A-Za-z0-9_-]{30,}$/,
          'BOT_TOKEN does not look like a token from @BotFather (123456789:AA…)',
        ),
      ),
    ),
    "the bot's token from @BotFather: Telegram init data is verified with it, and the bot runs. It never reaches the logs",
    { group: 'telegram', unset: 'demo mode' },
  ),
  BOT_USERNAME: documented(
    v.optional(
      v.pipe(
        text,
        v.transform((name) => name.replace(/^@/, '')),
        v.regex(
          /^[A-Za-z][A-Za-z0-9_]{3,31}$/,
          (issue) => `BOT_USERNAME must be a Telegram bot username, got "${issue.input}"`,
        ),
      ),
    ),
    "the bot's username (with or without `@`), for the `https://t.me/<bot>?startapp=order_<id>` links",
    { group: 'telegram' },
  ),
  OPERATOR_IDS: documented(
    telegramIds('OPERATOR_IDS'),
    'the Telegram user ids of the operators, comma-separated: they see the console and may call `/api/operator/*`',
    { group: 'operators' },
  ),
  SENIOR_OPERATOR_IDS: documented(
    telegramIds('SENIOR_OPERATOR_IDS'),
    'the Telegram user ids of the senior operators, comma-separated, each also in `OPERATOR_IDS`: only they decide appeals, and only their decision ends an order under appeal',
    { group: 'operators' },
  ),
  SUPPORT_URL: documented(
    v.optional(
      address('SUPPORT_URL', /^https:\/\/t\.me\/[A-Za-z0-9_+/?=&-]+$/, 'a https://t.me/… link'),
      'https://t.me/exchange_support',
    ),
    'the support chat the app links to, a `https://t.me/` link (the order number is prefilled)',
    { group: 'telegram' },
  ),
  OPERATOR_CHAT_ID: documented(
    v.optional(
      v.pipe(
        text,
        v.regex(
          /^-?\d{1,20}$/,
          (issue) =>
            `OPERATOR_CHAT_ID must be a Telegram chat id (a group's starts with -100), got "${issue.input}"`,
        ),
        v.transform(Number),
      ),
    ),
    "the chat the bot alerts operators in (a group's id starts with `-100`; `/chatid` there tells it): new orders, receipts, hashes, flags",
    { group: 'telegram', unset: 'no alerts' },
  ),
  OPERATOR_CHAT_LANGUAGE: documented(
    v.optional(
      v.picklist(
        LANGUAGES,
        (issue) =>
          `OPERATOR_CHAT_LANGUAGE must be one of ${LANGUAGES.join(', ')}, got "${String(issue.input)}"`,
      ),
      'ru',
    ),
    "the language of the operators' chat",
    { group: 'telegram' },
  ),
  WEBHOOK_URL: documented(
    v.optional(
      address(
        'WEBHOOK_URL',
        /^https:\/\/[^\s/?#]+\/[^\s?#]*$/,
        'an https:// address with a path (https://exchange.example/telegram/webhook)',
      ),
    ),
    "the public `https://` address Telegram posts the bot's updates to (any path): the server registers it at start-up, answers at its path and refuses calls without Telegram's secret token. Needs `BOT_TOKEN`; several instances need it",
    { group: 'telegram', unset: 'long polling' },
  ),
  TELEGRAM_API_ROOT: documented(
    v.optional(
      address(
        'TELEGRAM_API_ROOT',
        /^https?:\/\/[^\s]+[^\s/]$/,
        'an http(s):// address without a trailing slash',
      ),
      'https://api.telegram.org',
    ),
    "the Bot API server: Telegram's own, a self-hosted one, or a test double (no trailing slash)",
    { group: 'telegram' },
  ),
};

export function botProblems(env: CheckedVariables<'BOT_TOKEN' | 'WEBHOOK_URL'>): string[] {
  return env.BOT_TOKEN === undefined && env.WEBHOOK_URL !== undefined
    ? ['WEBHOOK_URL needs BOT_TOKEN: there is no bot to receive updates for']
    : [];
}

export function botConfigOf(variables: ParsedVariables<typeof BOT_VARIABLES>): BotConfig {
  return {
    botToken: variables.BOT_TOKEN,
    botUsername: variables.BOT_USERNAME,
    operatorIds: variables.OPERATOR_IDS,
    seniorOperatorIds: variables.SENIOR_OPERATOR_IDS,
    supportUrl: variables.SUPPORT_URL,
    operatorChatId: variables.OPERATOR_CHAT_ID,
    operatorChatLanguage: variables.OPERATOR_CHAT_LANGUAGE,
    webhookUrl: variables.WEBHOOK_URL,
    telegramApiRoot: variables.TELEGRAM_API_ROOT,
  };
}
