/** The HTTP server's variables: where it listens, whom it trusts, what it serves and logs. */
import { isIP } from 'node:net';
import path from 'node:path';
import * as v from 'valibot';
import { documented } from './documented';
import { commaList, onOrOff, text, wholeNumber, type ParsedVariables } from './values';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface ServerConfig {
  readonly port: number;
  readonly host: string;
  /** Addresses, CIDR ranges or proxy-addr's names (Fastify's `trustProxy`; app.ts says why). */
  readonly trustProxy: readonly string[];
  readonly logLevel: LogLevel;
  readonly staticDir: string | undefined;
  /** Whether the poll lane answers ordinary polls (status, unchanged chat) before Fastify. */
  readonly statusLane: boolean;
  /** The bearer token a scrape of the metrics must carry; unset, private addresses only. */
  readonly metricsToken: string | undefined;
}

const LOG_LEVELS = [
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
  'silent',
] as const satisfies readonly LogLevel[];

export function logsAt(config: Pick<ServerConfig, 'logLevel'>, level: LogLevel): boolean {
  return (
    config.logLevel !== 'silent' && LOG_LEVELS.indexOf(config.logLevel) >= LOG_LEVELS.indexOf(level)
  );
}

const DEFAULT_TRUST_PROXY = 'loopback,linklocal,uniquelocal';
const PROXY_RANGE_NAMES: ReadonlySet<string> = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

export const SERVER_VARIABLES = {
  PORT: documented(wholeNumber('PORT', 3000, 0, 65535), 'the HTTP port', { group: 'server' }),
  // A demo signs its customers in itself, so it listens on this machine only unless told.
  HOST: documented(
    v.optional(text),
    'the address to listen on: a demo is for this machine only unless you say otherwise',
    { group: 'server', unset: '`127.0.0.1` in demo mode, else `0.0.0.0`' },
  ),
  STATIC_DIR: documented(
    v.optional(text, 'dist'),
    'the built mini-app served at `/` (`npm run build` writes it)',
    { group: 'server' },
  ),
  STATUS_LANE: documented(
    onOrOff('STATUS_LANE'),
    "the poll lane: the HTTP server answers an ordinary status poll, and an open chat's poll while the chat is unchanged, itself, with Fastify's own answer at a fraction of its cost; `off` sends every request through Fastify (to rule the lane out when something looks wrong)",
    { group: 'server', unset: '`on`' },
  ),
  METRICS_TOKEN: documented(
    v.optional(
      v.pipe(
        text,
        v.regex(
          /^[\x21-\x7e]{32,}$/,
          'METRICS_TOKEN must be at least 32 printable characters without spaces (openssl rand -hex 32 makes one)',
        ),
      ),
    ),
    'the token a scrape of `/api/metrics` must carry as `Authorization: Bearer <token>`, at least 32 characters (`openssl rand -hex 32`); see [metrics](operating.md#metrics)',
    { group: 'observability', unset: 'private addresses only' },
  ),
  LOG_LEVEL: documented(
    v.optional(
      v.picklist(
        LOG_LEVELS,
        (issue) =>
          `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${String(issue.input)}"`,
      ),
      'info',
    ),
    "what is logged: one line per request (a screen's polling at `debug`), JSON lines on standard output (readable lines on a terminal where pino-pretty is installed)",
    { group: 'observability' },
  ),
  TRUST_PROXY: documented(
    v.optional(
      commaList(
        v.pipe(
          text,
          v.check(
            isProxyAddress,
            (issue) =>
              `TRUST_PROXY must be addresses or CIDR ranges of your reverse proxies, or loopback, linklocal, uniquelocal, separated by commas, got "${issue.input}"`,
          ),
        ),
      ),
      DEFAULT_TRUST_PROXY,
    ),
    "the reverse proxies whose `X-Forwarded-For` is believed for the client's address (the logs, the per-address limits, who may read the metrics): addresses or CIDR ranges, or `loopback`, `linklocal`, `uniquelocal`, comma-separated. The proxy must replace the header, not append to it ([`deploy/`](../deploy/README.md)'s nginx site does)",
    { group: 'server' },
  ),
};

export function serverConfigOf(
  variables: ParsedVariables<typeof SERVER_VARIABLES>,
  { cwd, demo }: { readonly cwd: string; readonly demo: boolean },
): ServerConfig {
  return {
    port: variables.PORT,
    host: variables.HOST ?? (demo ? '127.0.0.1' : '0.0.0.0'),
    trustProxy: variables.TRUST_PROXY,
    logLevel: variables.LOG_LEVEL,
    staticDir: path.resolve(cwd, variables.STATIC_DIR),
    statusLane: variables.STATUS_LANE !== 'off',
    metricsToken: variables.METRICS_TOKEN,
  };
}
