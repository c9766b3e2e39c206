/**
 * The mini-app's entry: the UI kit's CSS first, then ours; start Telegram (or the demo mock),
 * decide the entry route, render. No top-level await (es2020 target).
 */
import '@telegram-apps/telegram-ui/dist/styles.css';
import './styles.css';
import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { entryRoute } from './entry-route';
import { LanguageProvider, loadLanguage, startLanguage } from './i18n/language';
import { Root } from './root';
import { OpenInTelegram } from './screens/entry/open-in-telegram';
import { StartupError } from './screens/entry/startup-error';
import { LIGHT_THEME } from './telegram/default-themes';
import { showReadableTheme } from './telegram/readable-theme';
import { startTelegram } from './telegram/start';

const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root');
const root = createRoot(container);

function render(node: ReactNode): void {
  root.render(
    <StrictMode>
      <LanguageProvider>{node}</LanguageProvider>
    </StrictMode>,
  );
}

async function boot(): Promise<void> {
  const [started] = await Promise.all([startTelegram(), loadLanguage(startLanguage())]);
  if (started.kind === 'open-in-telegram') {
    // No client sends a theme here: Telegram's light palette, as the app looks inside it.
    showReadableTheme(LIGHT_THEME);
    render(<OpenInTelegram />);
    return;
  }
  const target = await entryRoute(window.location.pathname);
  if (target !== null) window.history.replaceState(null, '', target);
  render(<Root environment={started.environment} />);
}

boot().catch(async (error: unknown) => {
  console.error('Start-up failed', error);
  // The dictionary may be what failed to load: try once more, the error screen needs words.
  await loadLanguage(startLanguage()).catch(() => undefined);
  render(<StartupError />);
});
