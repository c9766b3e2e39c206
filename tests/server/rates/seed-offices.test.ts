import { describe, expect, it } from 'vitest';
import { SEED_CITIES } from '../../../src/server/platform/db/seed/offices';
import type { OfficeInfo } from '../../../src/shared/api';
import { COUNTRY_CODES, countryName, isCountryCode } from '../../../src/shared/countries';
import { LISTED_CURRENCIES } from '../../../src/shared/currencies';

const offices = SEED_CITIES.flatMap((city) => city.offices);
const KEBAB_CASE = /^[a-z0-9]+(-[a-z0-9]+)*$/;

describe('seed cities and offices', () => {
  it.each(LISTED_CURRENCIES)('%s can be bought for cash in at least two cities', (currency) => {
    const cities = SEED_CITIES.filter((city) => city.currencies.includes(currency));
    expect(cities.length).toBeGreaterThanOrEqual(2);
  });

  it('every city has one or two offices and takes at least one currency, none twice', () => {
    for (const city of SEED_CITIES) {
      expect(city.offices.length, city.id).toBeGreaterThanOrEqual(1);
      expect(city.offices.length, city.id).toBeLessThanOrEqual(2);
      expect(city.currencies.length, city.id).toBeGreaterThan(0);
      expect(new Set(city.currencies).size, city.id).toBe(city.currencies.length);
    }
  });

  it('city ids and office ids are unique kebab-case slugs', () => {
    const cityIds = SEED_CITIES.map((city) => city.id);
    const officeIds = offices.map((office) => office.id);
    expect(new Set(cityIds).size).toBe(cityIds.length);
    expect(new Set(officeIds).size).toBe(officeIds.length);
    for (const id of [...cityIds, ...officeIds]) expect(id).toMatch(KEBAB_CASE);
  });

  it('every city is named in both languages and lies in a country of COUNTRY_CODES', () => {
    for (const city of SEED_CITIES) {
      expect(city.nameRu.trim(), city.id).not.toBe('');
      expect(city.nameEn.trim(), city.id).not.toBe('');
      expect(city.nameRu, city.id).toMatch(/[а-яё]/i);
      expect(isCountryCode(city.countryCode), city.id).toBe(true);
    }
  });

  it('every office has ru and en addresses and hours, an international phone and an https map link', () => {
    for (const office of offices) {
      // A seed office is what an office reservation shows, field for field.
      const info: OfficeInfo = office;
      expect(info.addressRu.trim(), office.id).not.toBe('');
      expect(info.addressRu, office.id).toMatch(/[а-яё]/i);
      expect(info.addressEn.trim(), office.id).not.toBe('');
      expect(info.addressEn, office.id).not.toMatch(/[а-яё]/i);
      expect(info.workingHoursRu.trim(), office.id).not.toBe('');
      expect(info.workingHoursEn.trim(), office.id).not.toBe('');
      expect(info.workingHoursRu, office.id).not.toBe(info.workingHoursEn);
      expect(info.phone, office.id).toMatch(/^\+\d[\d ()-]{7,}$/);
      const link = new URL(info.mapLink);
      expect(link.protocol, office.id).toBe('https:');
      expect(['yandex.ru', 'maps.google.com'], office.id).toContain(link.hostname);
    }
  });

  it('a map link searches for the office address itself', () => {
    for (const office of offices) {
      const link = new URL(office.mapLink);
      const query = link.searchParams.get('text') ?? link.searchParams.get('q') ?? '';
      expect(
        [office.addressRu, office.addressEn].some((a) => query.includes(a)),
        office.id,
      ).toBe(true);
    }
  });
});

describe('country names', () => {
  it('COUNTRY_CODES holds about 28 distinct two-letter codes', () => {
    expect(COUNTRY_CODES.length).toBeGreaterThanOrEqual(25);
    expect(new Set(COUNTRY_CODES).size).toBe(COUNTRY_CODES.length);
    for (const code of COUNTRY_CODES) expect(code).toMatch(/^[A-Z]{2}$/);
  });

  it('isCountryCode accepts listed codes only, upper case', () => {
    expect(isCountryCode('AE')).toBe(true);
    expect(isCountryCode('ae')).toBe(false);
    expect(isCountryCode('ZZ')).toBe(false);
    expect(isCountryCode(7)).toBe(false);
  });

  it.each(['RU', 'AE', 'KZ'] as const)(
    '%s has a Russian and an English name from Intl, different from the code and each other',
    (code) => {
      const ru = countryName(code, 'ru');
      const en = countryName(code, 'en');
      expect(ru).not.toBe(code);
      expect(en).not.toBe(code);
      expect(ru).not.toBe(en);
      expect(ru).toMatch(/[А-ЯЁ]/);
    },
  );
});
