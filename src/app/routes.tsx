/**
 * The routes of spec section 2 that have a screen. Each later screen registers its route here
 * when it is built; anything else shows the not-found screen.
 */
import { Route, Switch } from 'wouter';
import { CardPayment } from './screens/entry/card-payment';
import { Currencies } from './screens/entry/currencies';
import { Landing } from './screens/entry/landing';
import { MethodScreen } from './screens/entry/method-screen';
import { NotFound } from './screens/entry/not-found';
import { PaymentSystems } from './screens/entry/payment-systems';
import { MyOrders } from './screens/history/my-orders';

export function AppRoutes() {
  return (
    <Switch>
      <Route path="/" component={Landing} />
      <Route path="/currencies" component={Currencies} />
      <Route path="/rub-method">{() => <MethodScreen currency="RUB" />}</Route>
      <Route path="/usd-method">{() => <MethodScreen currency="USD" />}</Route>
      <Route path="/eur-method">{() => <MethodScreen currency="EUR" />}</Route>
      <Route path="/aed-method">{() => <MethodScreen currency="AED" />}</Route>
      <Route path="/kzt-method">{() => <MethodScreen currency="KZT" />}</Route>
      <Route path="/payment-systems" component={PaymentSystems} />
      <Route path="/card-payment" component={CardPayment} />
      <Route path="/my-orders" component={MyOrders} />
      <Route component={NotFound} />
    </Switch>
  );
}
