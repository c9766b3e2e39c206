/**
 * `/currencies`: the five currencies, the hint, My orders, Settings and Logout; for an
 * operator (the server says so in `GET /api/me`), the entry to the console.
 */
import { Cell, List, Section } from '@telegram-apps/telegram-ui';
import { useLocation } from 'wouter';
import {
  CURRENCIES,
  LISTED_CURRENCIES,
  methodRoute,
  type ListedCurrency,
} from '../../../shared/currencies';
import { fetchMe } from '../../api/orders';
import { MyOrdersButton } from '../../components/my-orders-button';
import { Screen } from '../../components/screen';
import { ScreenButton } from '../../components/screen-action-button';
import { useFetchState } from '../../hooks/use-fetch-state';
import { currencyName } from '../../../shared/format';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { clearStoredLanguage, setSelectedCurrency } from '../../storage';
import { hapticSelection } from '../../telegram/actions';

export function Currencies() {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const [, navigate] = useLocation();
  // Nobody but an operator sees the entry; a failed call hides it (the console checks again).
  const me = useFetchState('me', (signal) => fetchMe(signal), {
    onError: (error) => console.warn('who am I failed; no console entry', error),
  });

  const pick = (code: ListedCurrency) => {
    hapticSelection();
    setSelectedCurrency(code);
    navigate(methodRoute(code));
  };

  return (
    <Screen testId="currencies" header={{ title: LL.currencies.title(), back: '/' }}>
      <List>
        <Section footer={LL.currencies.hint()}>
          {LISTED_CURRENCIES.map((code) => (
            <Cell
              key={code}
              data-currency={code}
              before={
                <span className="currency-flag" aria-hidden="true">
                  {CURRENCIES[code].flag}
                </span>
              }
              subtitle={code}
              // "United Arab Emirates Dirham" wraps at 360 px rather than being cut.
              multiline
              after={<span className="currency-symbol">{CURRENCIES[code].symbol}</span>}
              onClick={() => pick(code)}
            >
              {currencyName(code, language)}
            </Cell>
          ))}
        </Section>
      </List>
      <div className="screen__actions">
        <MyOrdersButton />
        {me.data?.operator === true && (
          <ScreenButton mode="gray" testId="console-entry" onClick={() => navigate('/console')}>
            {LL.currencies.consoleEntry()}
          </ScreenButton>
        )}
        <ScreenButton mode="plain" testId="settings-entry" onClick={() => navigate('/settings')}>
          {LL.savedDetails.settingsEntry()}
        </ScreenButton>
        <ScreenButton
          mode="plain"
          onClick={() => {
            clearStoredLanguage();
            navigate('/');
          }}
        >
          {LL.common.logout()}
        </ScreenButton>
      </div>
    </Screen>
  );
}
