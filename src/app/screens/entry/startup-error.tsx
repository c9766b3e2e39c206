/** The app could not start (server unreachable, SDK failure): said plainly, with a retry. */
import { AppRoot, Button, Placeholder } from '@telegram-apps/telegram-ui';
import { useI18nContext } from '../../i18n/language';

export function StartupError() {
  const { LL } = useI18nContext();
  return (
    <AppRoot appearance="light" platform="base">
      <div className="screen screen--center" data-screen="startup-error">
        <Placeholder
          header={LL.startupError.title()}
          description={LL.startupError.body()}
          action={
            <Button size="l" onClick={() => window.location.reload()}>
              {LL.common.retry()}
            </Button>
          }
        >
          <span className="placeholder-icon" aria-hidden="true">
            ⚠️
          </span>
        </Placeholder>
      </div>
    </AppRoot>
  );
}
