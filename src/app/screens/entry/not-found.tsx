/** Any route no screen claims: said plainly, with a way back. */
import { Button, Placeholder } from '@telegram-apps/telegram-ui';
import { useLocation } from 'wouter';
import { Screen } from '../../components/screen';
import { useI18nContext } from '../../i18n/language';

export function NotFound() {
  const { LL } = useI18nContext();
  const [, navigate] = useLocation();
  return (
    <Screen testId="not-found" header={{ home: true }}>
      <Placeholder
        header={LL.notFound.title()}
        description={LL.notFound.body()}
        action={
          <Button size="l" stretched onClick={() => navigate('/currencies')}>
            {LL.notFound.toCurrencies()}
          </Button>
        }
      >
        <span className="placeholder-icon" aria-hidden="true">
          🧭
        </span>
      </Placeholder>
    </Screen>
  );
}
