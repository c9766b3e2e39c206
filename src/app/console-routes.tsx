/**
 * The console's own routes, loaded with its chunk: the app's route table holds one entry for the
 * whole console, so customers' first chunk carries nothing of it but that line. Its words (the
 * `console` namespace of the dictionaries) load with it, before any of its screens shows.
 */
import { Route, Switch } from 'wouter';
import { ConsoleWords } from './components/console/console-words';
import { ConsoleOrder } from './screens/console/console-order';
import { ConsoleQueue } from './screens/console/console-queue';
import { ConsoleRates } from './screens/console/console-rates';
import { ConsoleSearch } from './screens/console/console-search';

export function ConsoleRoutes() {
  return (
    <ConsoleWords>
      <Switch>
        <Route path="/console" component={ConsoleQueue} />
        <Route path="/console/rates" component={ConsoleRates} />
        <Route path="/console/orders" component={ConsoleSearch} />
        <Route path="/console/orders/:id">
          {(params) => <ConsoleOrder key={params.id} orderId={params.id} />}
        </Route>
      </Switch>
    </ConsoleWords>
  );
}
