/** With a real bot token, outside Telegram: the app cannot identify the customer, so it says where to open it. */
import { AppRoot, Placeholder } from '@telegram-apps/telegram-ui';
import { useI18nContext } from '../../i18n/language';

export function OpenInTelegram() {
  const { LL } = useI18nContext();
  return (
    <AppRoot appearance="light" platform="base">
      <div className="screen screen--center" data-screen="open-in-telegram">
        <Placeholder header={LL.openInTelegram.title()} description={LL.openInTelegram.body()}>
          <span className="placeholder-icon" aria-hidden="true">
            ✈️
          </span>
        </Placeholder>
      </div>
    </AppRoot>
  );
}
