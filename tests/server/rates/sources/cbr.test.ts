/**
 * The Bank of Russia source against a fake of XML_daily.asp in its documented format: windows-1251
 * XML, decimal commas, Nominal (tests/helpers/market-fakes.ts).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cbrSource, moscowMidnight } from '../../../../src/server/rates/sources/cbr';
import {
  CBR_PATH,
  DEFAULT_DAILY,
  dailyXml,
  faultOf,
  startMarketFakes,
  type FakeValute,
  type MarketFakes,
} from '../../../helpers/market-fakes';

let fakes: MarketFakes;

beforeAll(async () => {
  fakes = await startMarketFakes();
});
afterAll(async () => {
  await fakes.stop();
});
beforeEach(() => {
  fakes.reset();
});

function read(timeoutMs = 2_000) {
  return cbrSource({ url: fakes.url, timeoutMs }).read(AbortSignal.timeout(10_000), Date.now());
}

/** 00:00 of 2 December 2026 in Moscow is 21:00 UTC the day before. */
const DEC_2_MOSCOW = Date.UTC(2026, 11, 1, 21, 0, 0);

const only = (...codes: string[]): FakeValute[] =>
  DEFAULT_DAILY.valutes.filter((valute) => codes.includes(valute.code));

function valute(code: string): FakeValute {
  const found = DEFAULT_DAILY.valutes.find((entry) => entry.code === code);
  if (found === undefined) throw new Error(`no ${code} in the default document`);
  return found;
}

describe('cbr: a normal answer', () => {
  it('answers USD, EUR, AED and KZT in roubles from the decimal-comma Values', async () => {
    const prices = await read();
    expect(prices.map((price) => `${price.base}/${price.quote} ${price.units}`)).toEqual([
      'USD/RUB 78123400',
      'EUR/RUB 91045600',
      'AED/RUB 21271200',
      'KZT/RUB 154032',
    ]);
  });

  it('divides by the Nominal: 15,4032 RUB for 100 tenge is 0.154032 RUB a tenge', async () => {
    const prices = await read();
    const kzt = prices.find((price) => price.base === 'KZT');
    expect(kzt?.units).toBe(154_032);
    expect(kzt?.detail).toContain('100 KZT = 15,4032 RUB');
  });

  it('decodes windows-1251: the names read as the bank wrote them', async () => {
    const prices = await read();
    expect(prices.find((price) => price.base === 'KZT')?.detail).toContain('Казахстанских тенге');
    expect(prices.find((price) => price.base === 'USD')?.detail).toContain('Доллар США');
  });

  it('dates every rate at 00:00 Moscow time of the ValCurs Date', async () => {
    const prices = await read();
    expect(new Set(prices.map((price) => price.at))).toEqual(new Set([DEC_2_MOSCOW]));
    expect(moscowMidnight('01.01.2027')).toBe(Date.UTC(2026, 11, 31, 21, 0, 0));
  });

  it('is a daily source named cbr, read once per call with a User-Agent', async () => {
    const source = cbrSource({ url: fakes.url });
    expect(source.name).toBe('cbr');
    expect(source.cadence).toBe('daily');
    await source.read(AbortSignal.timeout(10_000), Date.now());
    expect(fakes.calls(CBR_PATH)).toBe(1);
    expect(fakes.requests(CBR_PATH)[0]?.headers['user-agent']).toBeTruthy();
  });

  it('leaves out a currency the bank did not list, without a fault', async () => {
    fakes.cbr({ date: '02.12.2026', valutes: only('USD', 'KZT') });
    expect((await read()).map((price) => price.base)).toEqual(['USD', 'KZT']);
  });

  it('reads a document laid out over lines and indented, entities unescaped', async () => {
    const text = dailyXml(DEFAULT_DAILY)
      .replaceAll('<Valute ', '\r\n  <Valute ')
      .replace('Доллар США', 'Доллар &amp; США');
    fakes.cbr({ raw: `${text}\r\n` });
    const prices = await read();
    expect(prices).toHaveLength(4);
    expect(prices[0]?.detail).toContain('Доллар & США');
  });
});

describe('cbr: answers refused', () => {
  it('refuses as malformed an HTML page (the anti-bot filter) or a cut document', async () => {
    fakes.fail(CBR_PATH, { kind: 'body', text: '<html><title>DDoS-Guard</title></html>' }, 1);
    expect((await faultOf(read())).kind).toBe('malformed');
    fakes.cbr({ raw: dailyXml(DEFAULT_DAILY).slice(0, 300) });
    expect((await faultOf(read())).kind).toBe('malformed');
  });

  it('refuses as malformed a document with none of the four currencies', async () => {
    fakes.cbr({ date: '02.12.2026', valutes: only('CNY') });
    expect((await faultOf(read())).kind).toBe('malformed');
  });

  it('refuses as malformed a Date that is no day, a decimal point, a currency twice', async () => {
    fakes.cbr({ date: '31.02.2026', valutes: only('USD') });
    expect((await faultOf(read())).message).toContain('31.02.2026');
    fakes.cbr({ date: '02.12.2026', valutes: [{ ...valute('USD'), value: '78.1234' }] });
    expect((await faultOf(read())).kind).toBe('malformed');
    fakes.cbr({ date: '02.12.2026', valutes: [...only('USD'), ...only('USD')] });
    expect((await faultOf(read())).message).toContain('twice');
  });

  it('refuses as absurd a rate outside its band: the tenge per 1 instead of per 100, a zero', async () => {
    const kzt = valute('KZT');
    fakes.cbr({ date: '02.12.2026', valutes: [{ ...kzt, nominal: '1' }] });
    expect((await faultOf(read())).kind).toBe('absurd');
    fakes.cbr({ date: '02.12.2026', valutes: [...only('USD'), { ...kzt, value: '0,0000' }] });
    expect((await faultOf(read())).kind).toBe('absurd');
  });
});

describe('cbr: the site failing', () => {
  it('turns 429 with Retry-After into rate_limited with the wait in ms', async () => {
    fakes.fail(CBR_PATH, { kind: 'status', status: 429, headers: { 'retry-after': '5' } });
    const fault = await faultOf(read());
    expect(fault.kind).toBe('rate_limited');
    expect(fault.retryAfterMs).toBe(5_000);
  });

  it('turns a 403 (the filter refusing) into http_status', async () => {
    fakes.fail(CBR_PATH, { kind: 'status', status: 403 });
    expect((await faultOf(read())).kind).toBe('http_status');
  });

  it('gives up as timeout when no answer comes within timeoutMs', async () => {
    fakes.fail(CBR_PATH, { kind: 'slow', ms: 2_000 });
    expect((await faultOf(read(150))).kind).toBe('timeout');
  });
});
