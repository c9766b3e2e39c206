/**
 * The Bank of Russia's rates of the day (cbr.ru/development/SXML/): `GET /scripts/XML_daily.asp`,
 * windows-1251 XML `<ValCurs Date="02.12.2026" name="Foreign Currency Market"><Valute ID="R01235">
 * <NumCode>840</NumCode><CharCode>USD</CharCode><Nominal>1</Nominal><Name>Доллар США</Name>
 * <Value>78,1234</Value><VunitRate>…</VunitRate></Valute>…</ValCurs>`. `Value` is the roubles for
 * `Nominal` units (100 tenge), with a decimal comma: USD, EUR, AED and KZT are read as Value /
 * Nominal in RUB. `Date` is the day the rates hold for, published the working day before, so `at`
 * (its 00:00 in Moscow, UTC+3) may be ahead of the read. cbr.ru's anti-bot filter answers clients
 * it dislikes with a 403 or an HTML page (`malformed` here). The format is flat: a small strict
 * parser reads exactly it, no XML dependency.
 */
import { toUnits } from '../../../shared/money';
import type { ListedCurrency } from '../../../shared/currencies';
import { getBytes } from './http';
import { saneUnits } from './sane-bands';
import { SourceFault, type RateSource, type SourcePrice } from './source';

export interface CbrOptions {
  /** https://www.cbr.ru */
  readonly url: string;
  /** Unused (the rates are public); taken so every source is configured alike. */
  readonly apiKey?: string | undefined;
  readonly timeoutMs?: number | undefined;
}

export const CBR_CURRENCIES = [
  'USD',
  'EUR',
  'AED',
  'KZT',
] as const satisfies readonly ListedCurrency[];

const MOSCOW_OFFSET_MS = 3 * 60 * 60 * 1000;

export function cbrSource(options: CbrOptions): RateSource {
  const url = `${options.url.replace(/\/+$/, '')}/scripts/XML_daily.asp`;
  return {
    name: 'cbr',
    cadence: 'daily',
    async read(signal) {
      const bytes = await getBytes(url, {
        signal,
        timeoutMs: options.timeoutMs,
        headers: { accept: 'application/xml, text/xml' },
      });
      return cbrPricesOf(decode(bytes));
    },
  };
}

export function cbrPricesOf(xml: string): readonly SourcePrice[] {
  const document = parseDaily(xml);
  const at = moscowMidnight(document.date);
  const prices: SourcePrice[] = [];
  for (const code of CBR_CURRENCIES) {
    const found = document.valutes.filter((valute) => valute.CharCode === code);
    if (found.length > 1) throw new SourceFault('malformed', `${code} is listed twice`);
    const valute = found[0];
    if (valute === undefined) continue;
    prices.push(priceOf(code, valute, at));
  }
  if (prices.length === 0) {
    throw new SourceFault('malformed', `none of ${CBR_CURRENCIES.join(', ')} is in the answer`);
  }
  return prices;
}

function priceOf(code: ListedCurrency, valute: Valute, at: number): SourcePrice {
  const value = valute.Value;
  const nominal = valute.Nominal;
  if (value === undefined || nominal === undefined) {
    throw new SourceFault('malformed', `${code}: no Value or Nominal`);
  }
  if (!/^\d+$/.test(nominal) || Number(nominal) === 0) {
    throw new SourceFault('malformed', `${code}: Nominal "${nominal}" is not a positive integer`);
  }
  if (!/^-?\d+(,\d+)?$/.test(value)) {
    throw new SourceFault('malformed', `${code}: Value "${value}" is not a decimal`);
  }
  const valueUnits = toUnits(value.replace(',', '.'));
  if (valueUnits === undefined) throw new SourceFault('absurd', `${code}: Value ${value}`);
  return saneUnits({
    base: code,
    quote: 'RUB',
    units: Math.round(valueUnits / Number(nominal)),
    at,
    detail: `${nominal} ${code} = ${value} RUB (${valute.Name ?? code})`,
  });
}

/** The ms of 00:00 Moscow time of a `dd.mm.yyyy` date. */
export function moscowMidnight(date: string): number {
  const match = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(date);
  const [day, month, year] = match === null ? [] : match.slice(1).map(Number);
  if (day === undefined || month === undefined || year === undefined) {
    throw new SourceFault('malformed', `Date "${date}" is not dd.mm.yyyy`);
  }
  const utc = Date.UTC(year, month - 1, day);
  const back = new Date(utc);
  if (back.getUTCDate() !== day || back.getUTCMonth() !== month - 1) {
    throw new SourceFault('malformed', `Date "${date}" is no day of the calendar`);
  }
  return utc - MOSCOW_OFFSET_MS;
}

/** The text of the bytes in the encoding the XML declares, windows-1251 when it declares none. */
function decode(bytes: Uint8Array): string {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
  const declared = /^\s*<\?xml[^>]*\bencoding=["']([\w-]+)["']/i.exec(head)?.[1];
  try {
    return new TextDecoder(declared ?? 'windows-1251', { fatal: true }).decode(bytes);
  } catch {
    throw new SourceFault('malformed', `the answer is not valid ${declared ?? 'windows-1251'}`);
  }
}

/** One `<Valute>`'s text fields by element name. */
type Valute = Readonly<Partial<Record<string, string>>>;

interface DailyDocument {
  readonly date: string;
  readonly valutes: readonly Valute[];
}

const ATTRIBUTES = String.raw`((?:\s+[A-Za-z_][\w.:-]*\s*=\s*"[^"<]*")*)\s*`;
const PROLOG = /\uFEFF?\s*(?:<\?xml[^?]*\?>\s*)?/y;
const ROOT_OPEN = new RegExp(String.raw`<ValCurs${ATTRIBUTES}>`, 'y');
const VALUTE_OPEN = new RegExp(String.raw`\s*<Valute${ATTRIBUTES}>`, 'y');
const FIELD = /\s*<([A-Za-z]+)>([^<]*)<\/\1>/y;
const VALUTE_CLOSE = /\s*<\/Valute>/y;
const ROOT_CLOSE = /\s*<\/ValCurs>\s*$/y;

/** A prolog, `<ValCurs Date>`, `<Valute>`s of text fields, `</ValCurs>`; else `malformed`. */
function parseDaily(xml: string): DailyDocument {
  let position = 0;
  const take = (pattern: RegExp): RegExpExecArray | null => {
    pattern.lastIndex = position;
    const match = pattern.exec(xml);
    if (match !== null) position = pattern.lastIndex;
    return match;
  };
  take(PROLOG);
  const root = take(ROOT_OPEN);
  if (root === null) throw new SourceFault('malformed', 'the answer is not a ValCurs document');
  const date = attributesOf(root[1] ?? '')['Date'];
  if (date === undefined) throw new SourceFault('malformed', 'ValCurs has no Date');
  const valutes: Valute[] = [];
  while (take(VALUTE_OPEN) !== null) {
    const fields: Record<string, string> = {};
    for (let field = take(FIELD); field !== null; field = take(FIELD)) {
      const [, name = '', text = ''] = field;
      if (name in fields) throw new SourceFault('malformed', `a Valute has two ${name}`);
      fields[name] = unescapeXml(text).trim();
    }
    if (take(VALUTE_CLOSE) === null) {
      throw new SourceFault('malformed', `unexpected content at character ${position}`);
    }
    valutes.push(fields);
  }
  if (take(ROOT_CLOSE) === null) {
    throw new SourceFault('malformed', `unexpected content at character ${position}`);
  }
  return { date, valutes };
}

function attributesOf(text: string): Partial<Record<string, string>> {
  const attributes: Record<string, string> = {};
  for (const [, name = '', value = ''] of text.matchAll(/([A-Za-z_][\w.:-]*)\s*=\s*"([^"]*)"/g)) {
    attributes[name] = unescapeXml(value);
  }
  return attributes;
}

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
};

function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]+);/gi, (whole, name: string) => {
    if (!name.startsWith('#')) return ENTITIES[name] ?? whole;
    const code = /^#x/i.test(name) ? parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
