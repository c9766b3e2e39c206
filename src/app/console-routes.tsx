/**
 * The console's own routes, loaded with its chunk: the app's route table holds one entry for the
 * whole console, so customers' first chunk carries nothing of it but that line.
 *
 * Operators only: the console asks the server who the caller is (`GET /api/me`, the answer that
 * shows the entry on /currencies) and shows anyone else the not-found screen, as for any page that
 * is not theirs, without one operator call (the server would refuse each with 403 anyway). Its
 * words (the dictionaries' `console` namespace) load meanwhile; the loading screen shows until
 * both are there.
 */
import { Button, Placeholder } from '@telegram-apps/telegram-ui';
import { Route, Switch } from 'wouter';
import { fetchMe } from './api/orders';
import { useConsoleWords } from './features/console/console-words';
import { failureText } from './components/failure-text';
import { ScreenLoading } from './components/loading';
import { Screen } from './components/screen';
import { useFetchState } from './hooks/use-fetch-state';
import { useI18nContext, useLanguage } from './i18n/language';
import { ConsoleOrder } from './screens/console/console-order';
import { ConsoleQueue } from './screens/console/console-queue';
import { ConsoleRates } from './screens/console/console-rates';
import { ConsoleSearch } from './screens/console/console-search';
import { NotFound } from './screens/entry/not-found';

export function ConsoleRoutes() {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const wordsLoaded = useConsoleWords();
  const me = useFetchState('me', (signal) => fetchMe(signal));

  if (me.data === undefined && me.error !== undefined) {
    return (
      <Screen testId="console-unavailable" header={{ back: '/currencies' }}>
        <Placeholder
          header={failureText(me.error, LL, LL.errors.generic(), language)}
          action={
            <Button size="l" onClick={me.reload} data-testid="console-retry">
              {LL.common.retry()}
            </Button>
          }
        />
      </Screen>
    );
  }
  if (me.data?.operator === false) return <NotFound />;
  if (me.data === undefined || !wordsLoaded) return <ScreenLoading />;
  return (
    <Switch>
      <Route path="/console" component={ConsoleQueue} />
      <Route path="/console/rates" component={ConsoleRates} />
      <Route path="/console/orders" component={ConsoleSearch} />
      <Route path="/console/orders/:id">
        {(params) => <ConsoleOrder key={params.id} orderId={params.id} />}
      </Route>
    </Switch>
  );
}
