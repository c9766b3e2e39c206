/**
 * Fakes of the public price APIs the rate sources read, on 127.0.0.1, each answering its path in
 * the documented format:
 * - CoinGecko `GET /api/v3/simple/price` (docs.coingecko.com/reference/simple-price): an object
 *   per coin id, a number per vs-currency and `last_updated_at` in Unix seconds;
 * - EXMO `GET /v1.1/order_book` (exmo.me/en/api): `{ "<PAIR>": { ask_quantity, ask_amount,
 *   ask_top, bid_quantity, bid_amount, bid_top, ask: [[price, quantity, amount]…], bid: […] } }`,
 *   decimals as strings;
 * - the Bank of Russia `GET /scripts/XML_daily.asp` (cbr.ru/development/SXML/): windows-1251 XML.
 * A test sets what each path answers, makes the next answers fail (a status with headers, a body
 * that is not the format, a slow answer) and counts the calls of each path.
 *
 *   const fakes = await startMarketFakes();
 *   fakes.coingecko({ tether: { rub: 81.2, last_updated_at: 1711356300 } });
 *   fakes.fail(COINGECKO_PATH, { kind: 'status', status: 429, headers: { 'retry-after': '30' } });
 *   await fakes.stop();
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SourceFault } from '../../src/server/rates/sources/source';

export const COINGECKO_PATH = '/api/v3/simple/price';
export const EXMO_PATH = '/v1.1/order_book';
export const CBR_PATH = '/scripts/XML_daily.asp';
export type FakePath = typeof COINGECKO_PATH | typeof EXMO_PATH | typeof CBR_PATH;

export type CoinGeckoAnswer = Record<string, Record<string, number | string | null>>;

/** One level of a book: price and quantity (USDT); the fake adds the amount (RUB). */
export type FakeLevel = readonly [price: string, quantity: string];

export interface FakeBook {
  readonly pair?: string;
  readonly askTop?: string;
  readonly bidTop?: string;
  /** Lowest price first; `askTop` defaults to the first level's price. */
  readonly ask: readonly FakeLevel[];
  /** Highest price first. */
  readonly bid: readonly FakeLevel[];
}

export interface FakeValute {
  readonly code: string;
  readonly nominal: string;
  /** With a decimal comma, as the bank writes it: "78,1234". */
  readonly value: string;
  readonly name: string;
  readonly id?: string;
  readonly numCode?: string;
}

export interface FakeDaily {
  /** dd.mm.yyyy */
  readonly date: string;
  readonly valutes: readonly FakeValute[];
}

export type FakeFault =
  | { readonly kind: 'status'; readonly status: number; readonly headers?: Record<string, string> }
  /** A 200 whose body is this text: a proxy's error page, a truncated answer. */
  | { readonly kind: 'body'; readonly text: string; readonly contentType?: string }
  | { readonly kind: 'slow'; readonly ms: number };

export interface RecordedRequest {
  readonly query: URLSearchParams;
  readonly headers: http.IncomingHttpHeaders;
}

/** A port nothing listens on: a source pointed there is unreachable. */
export async function deadPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The SourceFault a read threw; fails the test if it answered or threw anything else. */
export async function faultOf(read: Promise<unknown>): Promise<SourceFault> {
  try {
    await read;
  } catch (error) {
    if (error instanceof SourceFault) return error;
    throw error;
  }
  throw new Error('the read answered instead of failing');
}

export interface MarketFakes {
  /** The origin every source's `url` is given: http://127.0.0.1:<port>. */
  readonly url: string;
  coingecko(answer: CoinGeckoAnswer): void;
  exmo(book: FakeBook): void;
  /** The bank's document; `raw` replaces it with this text (encoded windows-1251). */
  cbr(daily: FakeDaily | { readonly raw: string }): void;
  /** The next `times` answers of `path` (all of them by default) fail this way. */
  fail(path: FakePath, fault: FakeFault, times?: number): void;
  calls(path: FakePath): number;
  requests(path: FakePath): readonly RecordedRequest[];
  /** Back to the default answers, no faults, no calls counted. */
  reset(): void;
  stop(): Promise<void>;
}

interface Answer {
  readonly contentType: string;
  readonly body: Buffer;
}

export const DEFAULT_COINGECKO: CoinGeckoAnswer = {
  tether: {
    rub: 81.2,
    usd: 1.0002,
    eur: 0.9412,
    aed: 3.6735,
    kzt: 512.37,
    last_updated_at: 1711356300,
  },
  'usd-coin': {
    rub: 81.15,
    usd: 0.9999,
    eur: 0.941,
    aed: 3.672,
    kzt: 512.1,
    last_updated_at: 1711356290,
  },
};

export const DEFAULT_BOOK: FakeBook = {
  ask: [
    ['81.3', '1500'],
    ['81.35', '2500.5'],
  ],
  bid: [
    ['81.1', '1000'],
    ['81.05', '3000'],
  ],
};

export const DEFAULT_DAILY: FakeDaily = {
  date: '02.12.2026',
  valutes: [
    {
      id: 'R01235',
      numCode: '840',
      code: 'USD',
      nominal: '1',
      name: 'Доллар США',
      value: '78,1234',
    },
    { id: 'R01239', numCode: '978', code: 'EUR', nominal: '1', name: 'Евро', value: '91,0456' },
    {
      id: 'R01230',
      numCode: '784',
      code: 'AED',
      nominal: '1',
      name: 'Дирхам ОАЭ',
      value: '21,2712',
    },
    {
      id: 'R01335',
      numCode: '398',
      code: 'KZT',
      nominal: '100',
      name: 'Казахстанских тенге',
      value: '15,4032',
    },
    { id: 'R01375', numCode: '156', code: 'CNY', nominal: '1', name: 'Юань', value: '10,9876' },
  ],
};

export async function startMarketFakes(): Promise<MarketFakes> {
  const answers = new Map<FakePath, Answer>();
  const faults = new Map<FakePath, { fault: FakeFault; left: number }>();
  const recorded = new Map<FakePath, RecordedRequest[]>();
  const timers = new Set<NodeJS.Timeout>();
  const setDefaults = () => {
    answers.set(COINGECKO_PATH, json(DEFAULT_COINGECKO));
    answers.set(EXMO_PATH, json(exmoAnswer(DEFAULT_BOOK)));
    answers.set(CBR_PATH, xml(dailyXml(DEFAULT_DAILY)));
  };
  setDefaults();

  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname as FakePath;
    const answer = answers.get(path);
    if (request.method !== 'GET' || answer === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const list = recorded.get(path) ?? [];
    list.push({ query: url.searchParams, headers: request.headers });
    recorded.set(path, list);
    const fault = takeFault(faults, path);
    if (fault?.kind === 'status') {
      response.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers });
      response.end(JSON.stringify({ status: { error_code: fault.status } }));
    } else if (fault?.kind === 'body') {
      response.writeHead(200, { 'content-type': fault.contentType ?? 'text/html' });
      response.end(fault.text);
    } else {
      const send = () => {
        if (!response.destroyed) {
          response.writeHead(200, { 'content-type': answer.contentType }).end(answer.body);
        }
      };
      if (fault?.kind !== 'slow') {
        send();
        return;
      }
      const timer = setTimeout(() => {
        timers.delete(timer);
        send();
      }, fault.ms);
      timers.add(timer);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    coingecko: (answer) => answers.set(COINGECKO_PATH, json(answer)),
    exmo: (book) => answers.set(EXMO_PATH, json(exmoAnswer(book))),
    cbr: (daily) => answers.set(CBR_PATH, xml('raw' in daily ? daily.raw : dailyXml(daily))),
    fail: (path, fault, times = Number.POSITIVE_INFINITY) =>
      faults.set(path, { fault, left: times }),
    calls: (path) => recorded.get(path)?.length ?? 0,
    requests: (path) => recorded.get(path) ?? [],
    reset: () => {
      setDefaults();
      faults.clear();
      recorded.clear();
    },
    stop: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

function takeFault(
  faults: Map<FakePath, { fault: FakeFault; left: number }>,
  path: FakePath,
): FakeFault | undefined {
  const entry = faults.get(path);
  if (entry === undefined) return undefined;
  entry.left -= 1;
  if (entry.left <= 0) faults.delete(path);
  return entry.fault;
}

function json(value: unknown): Answer {
  return { contentType: 'application/json', body: Buffer.from(JSON.stringify(value)) };
}

function xml(text: string): Answer {
  return { contentType: 'application/xml; charset=windows-1251', body: encodeWindows1251(text) };
}

/** EXMO's answer for a book: the sums and amounts as its API computes them, strings all. */
export function exmoAnswer(book: FakeBook): Record<string, unknown> {
  const withAmount = (levels: readonly FakeLevel[]) =>
    levels.map(([price, quantity]) => [price, quantity, String(Number(price) * Number(quantity))]);
  const sum = (levels: readonly FakeLevel[], field: (level: FakeLevel) => number) =>
    String(levels.reduce((total, level) => total + field(level), 0));
  return {
    [book.pair ?? 'USDT_RUB']: {
      ask_quantity: sum(book.ask, ([, quantity]) => Number(quantity)),
      ask_amount: sum(book.ask, ([price, quantity]) => Number(price) * Number(quantity)),
      ask_top: book.askTop ?? book.ask[0]?.[0] ?? '0',
      bid_quantity: sum(book.bid, ([, quantity]) => Number(quantity)),
      bid_amount: sum(book.bid, ([price, quantity]) => Number(price) * Number(quantity)),
      bid_top: book.bidTop ?? book.bid[0]?.[0] ?? '0',
      ask: withAmount(book.ask),
      bid: withAmount(book.bid),
    },
  };
}

/** The bank's document as it writes it: a prolog, one line, no indentation. */
export function dailyXml(daily: FakeDaily): string {
  const valutes = daily.valutes
    .map(
      (valute, index) =>
        `<Valute ID="${valute.id ?? `R0${index}`}"><NumCode>${valute.numCode ?? '000'}</NumCode>` +
        `<CharCode>${valute.code}</CharCode><Nominal>${valute.nominal}</Nominal>` +
        `<Name>${valute.name}</Name><Value>${valute.value}</Value>` +
        `<VunitRate>${valute.value}</VunitRate></Valute>`,
    )
    .join('');
  return (
    `<?xml version="1.0" encoding="windows-1251"?>` +
    `<ValCurs Date="${daily.date}" name="Foreign Currency Market">${valutes}</ValCurs>`
  );
}

/**
 * windows-1251 bytes of a text. Node has no encoder for it, so the table is the decoder's,
 * inverted: every byte's character maps back to the byte.
 */
let encodeTable: Map<string, number> | undefined;
export function encodeWindows1251(text: string): Buffer {
  if (encodeTable === undefined) {
    const decoder = new TextDecoder('windows-1251');
    encodeTable = new Map();
    for (let byte = 0; byte < 256; byte += 1) {
      encodeTable.set(decoder.decode(Uint8Array.of(byte)), byte);
    }
  }
  const table = encodeTable;
  return Buffer.from(
    Array.from(text, (char) => {
      const byte = table.get(char);
      if (byte === undefined) throw new Error(`"${char}" has no windows-1251 byte`);
      return byte;
    }),
  );
}
