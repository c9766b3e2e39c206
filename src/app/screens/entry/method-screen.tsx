/**
 * `/rub-method`, `/usd-method`, `/eur-method`, `/aed-method`, `/kzt-method`: the ways to pay in
 * a currency, from `methodsFor` in src/shared. Coming-soon methods are shown and cannot be chosen.
 */
import { Badge, Cell, List, Section } from '@telegram-apps/telegram-ui';
import { useLocation } from 'wouter';
import {
  CURRENCIES,
  methodsFor,
  type ListedCurrency,
  type MethodOption,
} from '../../../shared/currencies';
import { RequireCurrency } from '../../components/require-currency';
import { Screen } from '../../components/screen';
import { currencyName, formatFiat } from '../../../shared/format';
import { fiatBounds } from '../../../shared/limits';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { hapticSelection } from '../../telegram/actions';

const ICONS: Record<MethodOption, string> = {
  p2p: '🤝',
  bankAccount: '🏦',
  card: '💳',
  eWallet: '👛',
  office: '🏢',
};

export function MethodScreen({ currency }: { readonly currency: ListedCurrency }) {
  return <RequireCurrency>{() => <MethodList currency={currency} />}</RequireCurrency>;
}

function MethodList({ currency }: { readonly currency: ListedCurrency }) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const [, navigate] = useLocation();
  const titles: Record<MethodOption, { title: string; description: string }> = {
    p2p: { title: LL.methods.p2p(), description: LL.methods.p2pDescription() },
    bankAccount: {
      title: LL.methods.bankAccount(),
      description: LL.methods.bankAccountDescription({
        min: formatFiat(fiatBounds('BANK_ACCOUNT', 'RUB').min, 'RUB', language),
      }),
    },
    card: { title: LL.methods.card(), description: LL.methods.cardDescription() },
    eWallet: { title: LL.methods.eWallet(), description: LL.methods.eWalletDescription() },
    office: { title: LL.methods.office(), description: LL.methods.officeDescription() },
  };

  return (
    <Screen
      testId={`${currency.toLowerCase()}-method`}
      header={{ title: LL.methods.title(), back: '/currencies' }}
    >
      <List>
        <Section
          header={LL.methods.subtitle({
            currency: `${CURRENCIES[currency].flag} ${currencyName(currency, language)}`,
          })}
        >
          {methodsFor(currency).map((method) => (
            <Cell
              key={method.option}
              data-method={method.option}
              aria-disabled={!method.available}
              disabled={!method.available}
              className={method.available ? undefined : 'cell--disabled'}
              before={
                <span className="method-icon" aria-hidden="true">
                  {ICONS[method.option]}
                </span>
              }
              description={titles[method.option].description}
              titleBadge={
                method.available ? undefined : (
                  <Badge type="number" mode="gray">
                    {LL.methods.comingSoon()}
                  </Badge>
                )
              }
              multiline
              onClick={
                method.available
                  ? () => {
                      hapticSelection();
                      navigate(method.route);
                    }
                  : undefined
              }
            >
              {titles[method.option].title}
            </Cell>
          ))}
        </Section>
      </List>
    </Screen>
  );
}
