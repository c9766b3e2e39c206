/** The app's loading state: the start-up spinner, announced to screen readers. */
import { useI18nContext } from '../i18n/language';

export function Loading() {
  const { LL } = useI18nContext();
  return (
    <div className="screen--center" role="status" aria-label={LL.common.loading()}>
      <span className="boot-spinner" />
    </div>
  );
}

/** What shows while a flow's screens are loaded on demand: a screen with the same spinner. */
export function ScreenLoading() {
  return (
    <div className="screen" data-screen="loading">
      <main className="screen__body">
        <Loading />
      </main>
    </div>
  );
}
