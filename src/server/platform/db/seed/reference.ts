/**
 * Reference data the service starts with: rates (inserted once, then the operators' to change)
 * and the cities and offices of src/server/platform/db/seed/offices.ts (kept in step with that file).
 */
import type { Kysely } from 'kysely';
import { SEED_CITIES } from './offices';
import type { Database } from '../schema';
import { seedRates } from './rates';

export async function seedReferenceData(db: Kysely<Database>, now: number): Promise<void> {
  await seedRates(db, now);
  await db.transaction().execute(async (trx) => {
    for (const [cityPosition, city] of SEED_CITIES.entries()) {
      const cityRow = {
        name_ru: city.nameRu,
        name_en: city.nameEn,
        country_code: city.countryCode,
        currencies: JSON.stringify(city.currencies),
        position: cityPosition,
      };
      await trx
        .insertInto('cities')
        .values({ id: city.id, ...cityRow })
        .onConflict((oc) => oc.column('id').doUpdateSet(cityRow))
        .execute();
      for (const [position, office] of city.offices.entries()) {
        const officeRow = {
          city_id: city.id,
          address_ru: office.addressRu,
          address_en: office.addressEn,
          working_hours_ru: office.workingHoursRu,
          working_hours_en: office.workingHoursEn,
          phone: office.phone,
          map_link: office.mapLink,
          position,
        };
        await trx
          .insertInto('offices')
          .values({ id: office.id, ...officeRow })
          .onConflict((oc) => oc.column('id').doUpdateSet(officeRow))
          .execute();
      }
    }
  });
}
