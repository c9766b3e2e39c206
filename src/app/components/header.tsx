/**
 * The header every screen shares: a back arrow or a home button, an optional title and the
 * RU/EN toggle. Inside Telegram the native back button replaces the arrow.
 */
import { IconButton, Text } from '@telegram-apps/telegram-ui';
import { useCallback } from 'react';
import { useLocation } from 'wouter';
import { LANGUAGES } from '../../shared/api';
import { useEnvironment } from '../environment-context';
import { useI18nContext, useLanguage } from '../i18n/language';
import { hapticSelection } from '../telegram/actions';
import { useNativeBackButton } from './back-button';

export interface HeaderProps {
  readonly title?: string;
  /** Where back goes; no back control when absent. */
  readonly back?: string;
  /** Show the home button (to /currencies) instead of a back arrow. */
  readonly home?: boolean;
}

export function Header({ title, back, home = false }: HeaderProps) {
  const { LL } = useI18nContext();
  const { language, chooseLanguage } = useLanguage();
  const { inTelegram } = useEnvironment();
  const [, navigate] = useLocation();
  const goBack = useCallback(() => {
    if (back !== undefined) navigate(back);
  }, [back, navigate]);
  useNativeBackButton(back === undefined ? undefined : goBack, inTelegram);

  return (
    <header className="app-header">
      <div className="app-header__side">
        {back !== undefined && !inTelegram && (
          <IconButton mode="plain" size="m" aria-label={LL.common.back()} onClick={goBack}>
            <span aria-hidden="true" className="app-header__icon">
              ←
            </span>
          </IconButton>
        )}
        {home && (
          <IconButton
            mode="plain"
            size="m"
            aria-label={LL.common.home()}
            onClick={() => navigate('/currencies')}
          >
            <span aria-hidden="true" className="app-header__icon">
              ⌂
            </span>
          </IconButton>
        )}
      </div>
      {title !== undefined && (
        <Text weight="2" className="app-header__title">
          {title}
        </Text>
      )}
      <div
        className="app-header__side app-header__side--end"
        role="group"
        aria-label={LL.common.languageToggle()}
      >
        {LANGUAGES.map((code) => (
          <button
            key={code}
            type="button"
            className="language-toggle"
            aria-pressed={language === code}
            onClick={() => {
              if (code === language) return;
              hapticSelection();
              chooseLanguage(code);
            }}
          >
            {code.toUpperCase()}
          </button>
        ))}
      </div>
    </header>
  );
}
