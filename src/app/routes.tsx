/**
 * The app's routes; anything else shows the not-found screen. The landing is in the
 * first chunk; every other screen loads on demand, one chunk per flow (vite.config.ts groups a
 * flow's folder into one chunk), behind the app's loading spinner. The order screens' routes are
 * generated from ORDER_SCREENS, so a screen of the table cannot lack its route.
 */
import { Suspense, createElement, lazy, type ComponentType, type ReactNode } from 'react';
import { Route, Switch } from 'wouter';
import { LISTED_CURRENCIES, methodRoute } from '../shared/currencies';
import { ORDER_SCREENS, orderScreenRoute, type OrderScreen } from '../shared/order-screens';
import { ScreenLoading } from './components/loading';
import { ORDER_APPEAL_ROUTE, ORDER_CHAT_ROUTE } from './order-side-paths';
import { Landing } from './screens/entry/landing';

/** A screen loaded on demand. Once its chunk is in, it renders at once, with no fallback. */
interface OnDemand<P> {
  (props: P): ReactNode;
  /** Loads the screen's chunk now (tests, or ahead of need). */
  readonly preload: () => Promise<void>;
}

const everyScreen: OnDemand<never>['preload'][] = [];

function onDemand<P extends object>(load: () => Promise<ComponentType<P>>): OnDemand<P> {
  let loaded: ComponentType<P> | undefined;
  const preload = async () => {
    loaded ??= await load();
  };
  const Lazy = lazy(async () => ({ default: (loaded ??= await load()) }));
  const Screen = (props: P) =>
    loaded === undefined ? <Lazy {...props} /> : createElement(loaded, props);
  everyScreen.push(preload);
  return Object.assign(Screen, { preload });
}

/** Loads every screen: component tests render without waiting for chunks. */
export async function preloadEveryScreen(): Promise<void> {
  await Promise.all(everyScreen.map((preload) => preload()));
}

// Entry
const Currencies = onDemand(() => import('./screens/entry/currencies').then((m) => m.Currencies));
const MethodScreen = onDemand(() =>
  import('./screens/entry/method-screen').then((m) => m.MethodScreen),
);
const PaymentSystems = onDemand(() =>
  import('./screens/entry/payment-systems').then((m) => m.PaymentSystems),
);
const CardPayment = onDemand(() =>
  import('./screens/entry/card-payment').then((m) => m.CardPayment),
);
const NotFound = onDemand(() => import('./screens/entry/not-found').then((m) => m.NotFound));
// P2P, bank and office
const P2pDirection = onDemand(() => import('./screens/p2p/direction').then((m) => m.P2pDirection));
const P2pBuy = onDemand(() => import('./screens/p2p/buy').then((m) => m.P2pBuy));
const P2pSell = onDemand(() => import('./screens/p2p/sell').then((m) => m.P2pSell));
const BankAccount = onDemand(() =>
  import('./screens/bank/bank-account').then((m) => m.BankAccount),
);
const OfficeExchange = onDemand(() =>
  import('./screens/office/office-exchange').then((m) => m.OfficeExchange),
);
const OfficeDetails = onDemand(() =>
  import('./screens/office/office-details').then((m) => m.OfficeDetails),
);
// The operators' console: its own chunk, which customers never load.
const ConsoleRoutes = onDemand(() => import('./console-routes').then((m) => m.ConsoleRoutes));
// Settings: the language and the saved details
const Settings = onDemand(() => import('./screens/settings/settings').then((m) => m.Settings));
// History and the order screens
const MyOrders = onDemand(() => import('./screens/history/my-orders').then((m) => m.MyOrders));
const ORDER_SCREEN_COMPONENTS: Record<OrderScreen, OnDemand<{ readonly orderId: string }>> = {
  waiting: onDemand(() => import('./screens/order/waiting').then((m) => m.Waiting)),
  payment: onDemand(() => import('./screens/order/payment').then((m) => m.Payment)),
  'bank-requisites': onDemand(() =>
    import('./screens/order/bank-requisites').then((m) => m.BankRequisitesScreen),
  ),
  'upload-receipt': onDemand(() =>
    import('./screens/order/upload-receipt').then((m) => m.UploadReceipt),
  ),
  complete: onDemand(() => import('./screens/order/complete').then((m) => m.Complete)),
  details: onDemand(() => import('./screens/order/details').then((m) => m.Details)),
  'send-crypto': onDemand(() => import('./screens/order/send-crypto').then((m) => m.SendCrypto)),
  'sell-waiting': onDemand(() => import('./screens/order/sell-waiting').then((m) => m.SellWaiting)),
  'office-waiting': onDemand(() =>
    import('./screens/order/office-waiting').then((m) => m.OfficeWaiting),
  ),
};

// The order's chat: with the order screens' chunk, though not a screen of their table (it polls
// the chat, not the order, and no status sends a customer there).
const OrderChatScreen = onDemand(() =>
  import('./screens/order/chat').then((m) => m.OrderChatScreen),
);
const AppealScreen = onDemand(() => import('./screens/order/appeal').then((m) => m.AppealScreen));

export function AppRoutes() {
  return (
    <Suspense fallback={<ScreenLoading />}>
      <Switch>
        <Route path="/" component={Landing} />
        <Route path="/currencies" component={Currencies} />
        {LISTED_CURRENCIES.map((currency) => (
          <Route key={currency} path={methodRoute(currency)}>
            {() => <MethodScreen currency={currency} />}
          </Route>
        ))}
        <Route path="/payment-systems" component={PaymentSystems} />
        <Route path="/card-payment" component={CardPayment} />
        <Route path="/p2p" component={P2pDirection} />
        <Route path="/p2p/buy" component={P2pBuy} />
        <Route path="/p2p/sell" component={P2pSell} />
        <Route path="/bank-account" component={BankAccount} />
        <Route path="/office-exchange" component={OfficeExchange} />
        <Route path="/office-details" component={OfficeDetails} />
        <Route path="/my-orders" component={MyOrders} />
        <Route path="/settings" component={Settings} />
        {ORDER_SCREENS.map((screen) => {
          const Screen = ORDER_SCREEN_COMPONENTS[screen];
          return (
            <Route key={screen} path={orderScreenRoute(screen)}>
              {(params) => <Screen key={params.orderId} orderId={params.orderId} />}
            </Route>
          );
        })}
        <Route path={ORDER_CHAT_ROUTE}>
          {(params) => <OrderChatScreen key={params.orderId} orderId={params.orderId} />}
        </Route>
        <Route path={ORDER_APPEAL_ROUTE}>
          {(params) => <AppealScreen key={params.orderId} orderId={params.orderId} />}
        </Route>
        <Route path="/console/*?" component={ConsoleRoutes} />
        <Route component={NotFound} />
      </Switch>
    </Suspense>
  );
}
