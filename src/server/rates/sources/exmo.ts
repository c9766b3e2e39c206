/**
 * EXMO's USDT/RUB order book (exmo.me/en/api; v1.1 at documenter.getpostman.com/view/10287440/
 * SzYXWKPi). Rapira documents no public market-data API (only users' scrapers show its
 * endpoints), so this rouble exchange, which does, is read instead. Public `GET
 * /v1.1/order_book?pair=USDT_RUB&limit=20` answers `{ "USDT_RUB": { "ask_top", "bid_top", "ask":
 * [[price, quantity, amount]…], "bid": […] } }`, decimals as strings (the docs also show numbers),
 * quantity in USDT. The price is the mid of `bid_top` and `ask_top`, dated when read (the book has
 * no time); `detail` gives both and the USDT on each side of the levels read.
 */
import * as v from 'valibot';
import { getJson } from './http';
import { sanePrice, saneUnits } from './sane-bands';
import { SourceFault, type RateSource, type SourcePrice } from './source';

export interface ExmoOptions {
  /** https://api.exmo.me */
  readonly url: string;
  /** Unused (the book is public); taken so every source is configured alike. */
  readonly apiKey?: string | undefined;
  readonly timeoutMs?: number | undefined;
  /** Levels read each side (EXMO's `limit`, 1–1000), which `detail`'s depth covers. */
  readonly levels?: number;
}

export const EXMO_PAIR = 'USDT_RUB';
const DEFAULT_LEVELS = 20;

const DecimalSchema = v.union([
  // A sign is let through so that a negative price is judged absurd, not misread.
  v.pipe(v.string(), v.regex(/^-?\d+(\.\d+)?$/)),
  v.pipe(v.number(), v.finite()),
]);
const LevelSchema = v.pipe(v.array(DecimalSchema), v.minLength(2));
const BookSchema = v.object({
  ask_top: DecimalSchema,
  bid_top: DecimalSchema,
  ask: v.pipe(v.array(LevelSchema), v.minLength(1)),
  bid: v.pipe(v.array(LevelSchema), v.minLength(1)),
});
/** EXMO refuses a call with `{ "result": false, "error": "…" }`. */
const RefusalSchema = v.object({ error: v.pipe(v.string(), v.minLength(1)) });

export function exmoSource(options: ExmoOptions): RateSource {
  const origin = options.url.replace(/\/+$/, '');
  const levels = Math.min(Math.max(1, options.levels ?? DEFAULT_LEVELS), 1000);
  const url = `${origin}/v1.1/order_book?pair=${EXMO_PAIR}&limit=${levels}`;
  return {
    name: 'exmo',
    cadence: 'market',
    async read(signal, now) {
      const json = await getJson(url, { signal, timeoutMs: options.timeoutMs });
      return [midOf(json, now)];
    },
  };
}

/** The USDT/RUB mid of an `order_book` answer, read at `at`. */
export function midOf(json: unknown, at: number): SourcePrice {
  const book = bookOf(json);
  const ask = sanePrice({ base: 'USDT', quote: 'RUB', value: book.ask_top, at });
  const bid = sanePrice({ base: 'USDT', quote: 'RUB', value: book.bid_top, at });
  if (bid.units > ask.units) {
    throw new SourceFault('absurd', `crossed book: bid ${book.bid_top} above ask ${book.ask_top}`);
  }
  const detail =
    `bid ${book.bid_top} / ask ${book.ask_top} RUB; ` +
    `top ${Math.max(book.bid.length, book.ask.length)} levels: ` +
    `${depthOf(book.bid)} USDT bid, ${depthOf(book.ask)} USDT ask`;
  return saneUnits({
    base: 'USDT',
    quote: 'RUB',
    units: Math.round((ask.units + bid.units) / 2),
    at,
    detail,
  });
}

function bookOf(json: unknown): v.InferOutput<typeof BookSchema> {
  const record = v.safeParse(v.record(v.string(), v.unknown()), json);
  if (!record.success) throw new SourceFault('malformed', 'the answer is not an object');
  const refusal = v.safeParse(RefusalSchema, json);
  if (refusal.success) throw new SourceFault('malformed', `refused: ${refusal.output.error}`);
  const pair = record.output[EXMO_PAIR];
  if (pair === undefined) {
    const answered = Object.keys(record.output).join(', ') || 'nothing';
    throw new SourceFault('malformed', `no ${EXMO_PAIR} book in the answer (it has ${answered})`);
  }
  const book = v.safeParse(BookSchema, pair);
  if (!book.success) throw new SourceFault('malformed', `${EXMO_PAIR}: ${book.issues[0].message}`);
  return book.output;
}

/** The USDT (a level's second field) on one side, to two decimals. */
function depthOf(side: readonly (readonly (string | number)[])[]): string {
  const total = side.reduce((sum, level) => sum + Number(level[1]), 0);
  return total.toFixed(2);
}
