/**
 * `/office-exchange`: buy with cash at an office in the chosen currency: the cities of that
 * currency in the customer's language (the country under the city for USD and EUR), the passport
 * / rate-fixed / wallet warning, and the per-currency bounds of src/shared/limits.ts.
 */
import { Button, Cell, Radio, Text } from '@telegram-apps/telegram-ui';
import type { City } from '../../../shared/api';
import { isCountryCode, countryName } from '../../../shared/countries';
import { methodRoute } from '../../../shared/currencies';
import { BANK_RATE_DEBOUNCE_MS, fiatBounds } from '../../../shared/limits';
import { fetchCities } from '../../api/orders';
import { BuyForm } from '../../features/order-form/buy-form';
import { useFetchState } from '../../hooks/use-fetch-state';
import { RequireCurrency } from '../../components/require-currency';
import { Screen } from '../../components/screen';
import { useI18nContext, useLanguage } from '../../i18n/language';
import type { SelectedCurrency } from '../../storage';

export function OfficeExchange() {
  return <RequireCurrency>{(currency) => <OfficeForm currency={currency} />}</RequireCurrency>;
}

/**
 * A city's name in the customer's language: the cell's text and its radio's name (the kit's
 * radio is a <label> of its own inside the cell's, so the cell's text does not name it).
 */
const cityName = (city: City, language: 'ru' | 'en') =>
  language === 'ru' ? city.nameRu : city.nameEn;

function OfficeForm({ currency }: { readonly currency: SelectedCurrency }) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const load = useFetchState(currency.code, (signal) => fetchCities(currency.code, signal));
  const cities: readonly City[] | undefined = load.data?.data;

  // The country is shown under the city for USD and EUR (their cities lie in several countries).
  const withCountry = currency.code === 'USD' || currency.code === 'EUR';

  return (
    <Screen
      testId="office-exchange"
      header={{ title: LL.officeForm.title(), back: methodRoute(currency.code) }}
    >
      <BuyForm
        testId="office-form"
        method="OFFICE"
        currency={currency.code}
        bounds={fiatBounds('OFFICE', currency.code)}
        debounceMs={BANK_RATE_DEBOUNCE_MS}
        wholeFiat={false}
        errorsInline
        requireCity
        fiatLabel={LL.officeForm.amountFiat({ currency: currency.code })}
        next="office-waiting"
        extra={({ cityId, setCityId, error }) => (
          <div role="radiogroup" aria-label={LL.officeForm.city()} data-testid="city-list">
            <Text className="buy-form__label">{LL.officeForm.city()}</Text>
            {cities === undefined && load.error === undefined && <Cell>{LL.common.loading()}</Cell>}
            {cities === undefined && load.error !== undefined && (
              <div className="load-failed" role="alert" data-testid="cities-failed">
                <Text>{LL.officeForm.citiesFailed()}</Text>
                <Button size="s" mode="bezeled" onClick={load.reload} data-testid="cities-retry">
                  {LL.common.retry()}
                </Button>
              </div>
            )}
            {(cities ?? []).map((city) => (
              <Cell
                key={city.id}
                Component="label"
                data-city={city.id}
                before={
                  <Radio
                    name="cityId"
                    value={city.id}
                    aria-label={cityName(city, language)}
                    checked={cityId === city.id}
                    onChange={() => setCityId(city.id)}
                  />
                }
                subtitle={
                  withCountry && isCountryCode(city.countryCode)
                    ? countryName(city.countryCode, language)
                    : undefined
                }
              >
                {cityName(city, language)}
              </Cell>
            ))}
            {error}
          </div>
        )}
        notice={
          <div className="warning-box" role="note" data-testid="office-warning">
            <strong>{LL.officeForm.warningTitle()}</strong>
            <ul>
              <li>{LL.officeForm.passportRequired()}</li>
              <li>{LL.officeForm.rateFixed()}</li>
              <li>{LL.officeForm.walletWarning()}</li>
            </ul>
          </div>
        }
      />
    </Screen>
  );
}
