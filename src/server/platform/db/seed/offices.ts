import type { CountryCode } from '../../../../shared/countries';
import type { OfficeInfo } from '../../../../shared/api';
import type { ListedCurrency } from '../../../../shared/currencies';

/**
 * The exchange's cash offices and their cities. `GET /api/cities/{currency}` lists the
 * cities whose `currencies` hold the currency; an office reservation copies one office's fields.
 */

/**
 * One office, as the customer reads it (`OfficeInfo`): the single `workingHours` is kept
 * per language, because days of the week cannot be written so that both languages read them.
 */
export type SeedOffice = OfficeInfo;

export interface SeedCity {
  /** Stable kebab-case slug, e.g. `moscow`; what an office order stores as `cityId`. */
  readonly id: string;
  readonly nameRu: string;
  readonly nameEn: string;
  readonly countryCode: CountryCode;
  /** The cash currencies this city's offices take. */
  readonly currencies: readonly ListedCurrency[];
  readonly offices: readonly SeedOffice[];
}

type OfficeInput = Omit<SeedOffice, 'mapLink'>;

interface CityInput extends Omit<SeedCity, 'offices'> {
  /** Yandex Maps where customers use it (Russia, Kazakhstan), Google Maps elsewhere. */
  readonly maps: 'yandex' | 'google';
  readonly offices: readonly OfficeInput[];
}

/** Builds each office's map link from its address, encoded so the link is always a valid URL. */
function city({ maps, offices, ...rest }: CityInput): SeedCity {
  return {
    ...rest,
    offices: offices.map((office) => ({
      ...office,
      mapLink:
        maps === 'yandex'
          ? `https://yandex.ru/maps/?text=${encodeURIComponent(`${rest.nameRu}, ${office.addressRu}`)}`
          : `https://maps.google.com/?q=${encodeURIComponent(`${office.addressEn}, ${rest.nameEn}`)}`,
    })),
  };
}

const WEEKDAYS_10_20_SAT_11_17 = {
  workingHoursRu: 'Пн–Пт 10:00–20:00, Сб 11:00–17:00',
  workingHoursEn: 'Mon–Fri 10:00–20:00, Sat 11:00–17:00',
} as const;

const DAILY_10_21 = {
  workingHoursRu: 'Ежедневно 10:00–21:00',
  workingHoursEn: 'Daily 10:00–21:00',
} as const;

const WEEKDAYS_10_19 = {
  workingHoursRu: 'Пн–Пт 10:00–19:00',
  workingHoursEn: 'Mon–Fri 10:00–19:00',
} as const;

const WEEKDAYS_09_18_SAT_10_15 = {
  workingHoursRu: 'Пн–Пт 09:00–18:00, Сб 10:00–15:00',
  workingHoursEn: 'Mon–Fri 09:00–18:00, Sat 10:00–15:00',
} as const;

/** The Emirates' weekend is Saturday and Sunday since 2022; offices there also open on Saturday. */
const UAE_MON_SAT_10_20 = {
  workingHoursRu: 'Пн–Сб 10:00–20:00',
  workingHoursEn: 'Mon–Sat 10:00–20:00',
} as const;

/** Every city with an office, Russia first, then by country; each listed currency has two or more. */
export const SEED_CITIES: readonly SeedCity[] = [
  // Russia
  city({
    id: 'moscow',
    nameRu: 'Москва',
    nameEn: 'Moscow',
    countryCode: 'RU',
    currencies: ['RUB', 'USD', 'EUR'],
    maps: 'yandex',
    offices: [
      {
        id: 'moscow-city-tower',
        addressRu: 'Пресненская наб., 12, башня «Федерация», офис 4310',
        addressEn: '12 Presnenskaya Embankment, Federation Tower, office 4310',
        ...WEEKDAYS_10_20_SAT_11_17,
        phone: '+7 495 662-41-80',
      },
      {
        id: 'moscow-tverskaya',
        addressRu: 'ул. Тверская, 22, офис 305',
        addressEn: '22 Tverskaya Street, office 305',
        ...DAILY_10_21,
        phone: '+7 495 784-19-32',
      },
    ],
  }),
  city({
    id: 'saint-petersburg',
    nameRu: 'Санкт-Петербург',
    nameEn: 'Saint Petersburg',
    countryCode: 'RU',
    currencies: ['RUB', 'USD', 'EUR'],
    maps: 'yandex',
    offices: [
      {
        id: 'saint-petersburg-nevsky',
        addressRu: 'Невский пр., 85, БЦ «Невский 85», офис 412',
        addressEn: '85 Nevsky Prospekt, Nevsky 85 Business Centre, office 412',
        ...WEEKDAYS_10_20_SAT_11_17,
        phone: '+7 812 407-52-16',
      },
      {
        id: 'saint-petersburg-petrogradskaya',
        addressRu: 'Большой пр. П.С., 68, офис 21',
        addressEn: '68 Bolshoy Prospekt P.S., office 21',
        ...WEEKDAYS_10_19,
        phone: '+7 812 643-27-90',
      },
    ],
  }),
  city({
    id: 'kazan',
    nameRu: 'Казань',
    nameEn: 'Kazan',
    countryCode: 'RU',
    currencies: ['RUB'],
    maps: 'yandex',
    offices: [
      {
        id: 'kazan-baumana',
        addressRu: 'ул. Баумана, 44/8, офис 210',
        addressEn: '44/8 Baumana Street, office 210',
        ...WEEKDAYS_10_19,
        phone: '+7 843 211-38-64',
      },
    ],
  }),
  city({
    id: 'yekaterinburg',
    nameRu: 'Екатеринбург',
    nameEn: 'Yekaterinburg',
    countryCode: 'RU',
    currencies: ['RUB'],
    maps: 'yandex',
    offices: [
      {
        id: 'yekaterinburg-vysotsky',
        addressRu: 'ул. Малышева, 51, БЦ «Высоцкий», офис 2705',
        addressEn: '51 Malysheva Street, Vysotsky Business Centre, office 2705',
        ...WEEKDAYS_10_19,
        phone: '+7 343 288-71-45',
      },
    ],
  }),
  city({
    id: 'novosibirsk',
    nameRu: 'Новосибирск',
    nameEn: 'Novosibirsk',
    countryCode: 'RU',
    currencies: ['RUB'],
    maps: 'yandex',
    offices: [
      {
        id: 'novosibirsk-krasny',
        addressRu: 'Красный пр., 28, офис 507',
        addressEn: '28 Krasny Prospekt, office 507',
        ...WEEKDAYS_09_18_SAT_10_15,
        phone: '+7 383 375-04-29',
      },
    ],
  }),
  // Kazakhstan
  city({
    id: 'almaty',
    nameRu: 'Алматы',
    nameEn: 'Almaty',
    countryCode: 'KZ',
    currencies: ['KZT', 'USD'],
    maps: 'yandex',
    offices: [
      {
        id: 'almaty-esentai',
        addressRu: 'пр. Аль-Фараби, 77/7, БЦ «Esentai Tower», офис 1203',
        addressEn: '77/7 Al-Farabi Avenue, Esentai Tower, office 1203',
        ...WEEKDAYS_10_20_SAT_11_17,
        phone: '+7 727 356-12-48',
      },
      {
        id: 'almaty-panfilova',
        addressRu: 'ул. Панфилова, 98, офис 310',
        addressEn: '98 Panfilov Street, office 310',
        ...WEEKDAYS_10_19,
        phone: '+7 727 279-65-03',
      },
    ],
  }),
  city({
    id: 'astana',
    nameRu: 'Астана',
    nameEn: 'Astana',
    countryCode: 'KZ',
    currencies: ['KZT'],
    maps: 'yandex',
    offices: [
      {
        id: 'astana-mangilik-el',
        addressRu: 'пр. Мангилик Ел, 55/20, офис 1604',
        addressEn: '55/20 Mangilik El Avenue, office 1604',
        ...WEEKDAYS_10_19,
        phone: '+7 717 264-90-37',
      },
    ],
  }),
  city({
    id: 'shymkent',
    nameRu: 'Шымкент',
    nameEn: 'Shymkent',
    countryCode: 'KZ',
    currencies: ['KZT'],
    maps: 'yandex',
    offices: [
      {
        id: 'shymkent-tauke-khan',
        addressRu: 'пр. Тауке хана, 35, офис 8',
        addressEn: '35 Tauke Khan Avenue, office 8',
        ...WEEKDAYS_09_18_SAT_10_15,
        phone: '+7 725 253-41-76',
      },
    ],
  }),
  // United Arab Emirates
  city({
    id: 'dubai',
    nameRu: 'Дубай',
    nameEn: 'Dubai',
    countryCode: 'AE',
    currencies: ['AED', 'USD'],
    maps: 'google',
    offices: [
      {
        id: 'dubai-business-bay',
        addressRu: 'Бизнес-Бей, башня Churchill Executive, офис 1507',
        addressEn: 'Churchill Executive Tower, office 1507, Business Bay',
        ...UAE_MON_SAT_10_20,
        phone: '+971 4 431 2867',
      },
      {
        id: 'dubai-deira',
        addressRu: 'Дейра, ул. Аль-Мактум, здание Al Moosa, офис 204',
        addressEn: 'Al Moosa Building, office 204, Al Maktoum Road, Deira',
        ...UAE_MON_SAT_10_20,
        phone: '+971 4 295 6130',
      },
    ],
  }),
  city({
    id: 'abu-dhabi',
    nameRu: 'Абу-Даби',
    nameEn: 'Abu Dhabi',
    countryCode: 'AE',
    currencies: ['AED'],
    maps: 'google',
    offices: [
      {
        id: 'abu-dhabi-hamdan',
        addressRu: 'ул. Хамдан бин Мохаммед, башня Al Masaood, офис 1104',
        addressEn: 'Al Masaood Tower, office 1104, Hamdan Bin Mohammed Street',
        ...UAE_MON_SAT_10_20,
        phone: '+971 2 627 4419',
      },
    ],
  }),
  city({
    id: 'sharjah',
    nameRu: 'Шарджа',
    nameEn: 'Sharjah',
    countryCode: 'AE',
    currencies: ['AED'],
    maps: 'google',
    offices: [
      {
        id: 'sharjah-al-majaz',
        addressRu: 'Аль-Маджаз 2, ул. Джамаль Абдель Насер, башня Al Shams, офис 905',
        addressEn: 'Al Shams Tower, office 905, Jamal Abdul Nasser Street, Al Majaz 2',
        ...UAE_MON_SAT_10_20,
        phone: '+971 6 556 0382',
      },
    ],
  }),
  // Abroad: dollars and euros
  city({
    id: 'istanbul',
    nameRu: 'Стамбул',
    nameEn: 'Istanbul',
    countryCode: 'TR',
    currencies: ['USD', 'EUR'],
    maps: 'google',
    offices: [
      {
        id: 'istanbul-levent',
        addressRu: 'Левент, пр. Бююкдере, 185, офис 12',
        addressEn: 'Büyükdere Caddesi 185, office 12, Levent, Şişli',
        ...WEEKDAYS_10_20_SAT_11_17,
        phone: '+90 212 284 39 57',
      },
      {
        id: 'istanbul-nisantasi',
        addressRu: 'Нишанташы, ул. Валиконаги, 41, офис 3',
        addressEn: 'Valikonağı Caddesi 41, office 3, Nişantaşı, Şişli',
        ...WEEKDAYS_10_19,
        phone: '+90 212 231 70 64',
      },
    ],
  }),
  city({
    id: 'tbilisi',
    nameRu: 'Тбилиси',
    nameEn: 'Tbilisi',
    countryCode: 'GE',
    currencies: ['USD', 'EUR'],
    maps: 'google',
    offices: [
      {
        id: 'tbilisi-rustaveli',
        addressRu: 'пр. Руставели, 24, офис 12',
        addressEn: '24 Rustaveli Avenue, office 12',
        ...WEEKDAYS_10_20_SAT_11_17,
        phone: '+995 32 224 18 73',
      },
    ],
  }),
  city({
    id: 'yerevan',
    nameRu: 'Ереван',
    nameEn: 'Yerevan',
    countryCode: 'AM',
    currencies: ['USD', 'EUR'],
    maps: 'google',
    offices: [
      {
        id: 'yerevan-abovyan',
        addressRu: 'ул. Абовяна, 8, офис 5',
        addressEn: '8 Abovyan Street, office 5',
        ...WEEKDAYS_10_20_SAT_11_17,
        phone: '+374 10 54 36 21',
      },
    ],
  }),
  city({
    id: 'belgrade',
    nameRu: 'Белград',
    nameEn: 'Belgrade',
    countryCode: 'RS',
    currencies: ['EUR'],
    maps: 'google',
    offices: [
      {
        id: 'belgrade-knez-mihailova',
        addressRu: 'ул. Кнез Михаилова, 30, офис 4',
        addressEn: 'Knez Mihailova 30, office 4',
        ...WEEKDAYS_10_19,
        phone: '+381 11 328 45 09',
      },
    ],
  }),
  city({
    id: 'limassol',
    nameRu: 'Лимасол',
    nameEn: 'Limassol',
    countryCode: 'CY',
    currencies: ['EUR'],
    maps: 'google',
    offices: [
      {
        id: 'limassol-makarios',
        addressRu: 'пр. Архиепископа Макариоса III, 199, офис 301',
        addressEn: '199 Archbishop Makarios III Avenue, office 301',
        ...WEEKDAYS_09_18_SAT_10_15,
        phone: '+357 25 821 640',
      },
    ],
  }),
];
