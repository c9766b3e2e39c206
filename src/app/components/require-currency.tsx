/** Screens that need the chosen currency go to / when it is missing (a link opened cold). */
import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import { getSelectedCurrency, type SelectedCurrency } from '../storage';

export function RequireCurrency({
  children,
}: {
  readonly children: (currency: SelectedCurrency) => ReactNode;
}) {
  const currency = getSelectedCurrency();
  if (currency === null) return <Redirect to="/" replace />;
  return <>{children(currency)}</>;
}
