/** The cities with an office that takes a currency (`GET /api/cities/{code}`). */
import type { CitiesResponse } from '../../shared/api';
import { isListedCurrency } from '../../shared/currencies';
import type { ServerContext } from '../platform/context';
import { AppError } from '../platform/errors';

/** In the order of the seed data; NOT_FOUND for a currency the service does not list. */
export async function citiesTaking(
  ctx: ServerContext,
  currencyCode: string,
): Promise<CitiesResponse> {
  const code = currencyCode.toUpperCase();
  if (!isListedCurrency(code)) throw new AppError('NOT_FOUND');
  const rows = await ctx.db.selectFrom('cities').selectAll().orderBy('position').execute();
  return {
    data: rows
      .filter((row) => (JSON.parse(row.currencies) as string[]).includes(code))
      .map((row) => ({
        id: row.id,
        nameRu: row.name_ru,
        nameEn: row.name_en,
        countryCode: row.country_code,
      })),
  };
}
