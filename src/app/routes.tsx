/**
 * The routes of spec section 2 that have a screen. Each later screen registers its route here
 * when it is built; anything else shows the not-found screen.
 */
import { Route, Switch } from 'wouter';
import { BankAccount } from './screens/bank/bank-account';
import { OfficeDetails } from './screens/office/office-details';
import { OfficeExchange } from './screens/office/office-exchange';
import { BankRequisitesScreen } from './screens/order/bank-requisites';
import { Complete } from './screens/order/complete';
import { Details } from './screens/order/details';
import { OfficeWaiting } from './screens/order/office-waiting';
import { Payment } from './screens/order/payment';
import { UploadReceipt } from './screens/order/upload-receipt';
import { Waiting } from './screens/order/waiting';
import { P2pBuy } from './screens/p2p/buy';
import { P2pDirection } from './screens/p2p/direction';
import { P2pSell } from './screens/p2p/sell';
import { SellWaiting } from './screens/order/sell-waiting';
import { SendCrypto } from './screens/order/send-crypto';
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
      <Route path="/p2p" component={P2pDirection} />
      <Route path="/p2p/buy" component={P2pBuy} />
      <Route path="/p2p/sell" component={P2pSell} />
      <Route path="/bank-account" component={BankAccount} />
      <Route path="/office-exchange" component={OfficeExchange} />
      <Route path="/office-details" component={OfficeDetails} />
      <Route path="/my-orders" component={MyOrders} />
      <Route path="/order/:orderId/waiting">
        {(p) => <Waiting key={p.orderId} orderId={p.orderId} />}
      </Route>
      <Route path="/order/:orderId/payment">
        {(p) => <Payment key={p.orderId} orderId={p.orderId} />}
      </Route>
      <Route path="/order/:orderId/bank-requisites">
        {(p) => <BankRequisitesScreen key={p.orderId} orderId={p.orderId} />}
      </Route>
      <Route path="/order/:orderId/upload-receipt">
        {(p) => <UploadReceipt key={p.orderId} orderId={p.orderId} />}
      </Route>
      <Route path="/order/:orderId/complete">
        {(p) => <Complete key={p.orderId} orderId={p.orderId} />}
      </Route>
      <Route path="/order/:orderId/details">
        {(p) => <Details key={p.orderId} orderId={p.orderId} />}
      </Route>
      <Route path="/order/:orderId/send-crypto">
        {(p) => <SendCrypto key={p.orderId} orderId={p.orderId} />}
      </Route>
      <Route path="/order/:orderId/sell-waiting">
        {(p) => <SellWaiting key={p.orderId} orderId={p.orderId} />}
      </Route>
      <Route path="/order/:orderId/office-waiting">
        {(p) => <OfficeWaiting key={p.orderId} orderId={p.orderId} />}
      </Route>
      <Route component={NotFound} />
    </Switch>
  );
}
