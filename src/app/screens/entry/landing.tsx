/**
 * `/`: the landing: the language choice, the service
 * status, the support link and the copyright. Where the app goes by itself when a language is
 * already stored is decided at start-up (entry-route.ts).
 */
import { Button, Cell, List, Placeholder, Section, Text, Title } from '@telegram-apps/telegram-ui';
import { useLocation } from 'wouter';
import type { Language } from '../../../shared/api';
import { HealthIndicator } from '../../components/health-indicator';
import { useEnvironment } from '../../environment-context';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { hapticSelection, openSupportLink } from '../../telegram/actions';

export function Landing() {
  const { LL } = useI18nContext();
  const { chooseLanguage } = useLanguage();
  const { supportUrl, inTelegram } = useEnvironment();
  const [, navigate] = useLocation();

  const choose = (language: Language) => {
    hapticSelection();
    chooseLanguage(language);
    navigate('/currencies');
  };

  return (
    <div className="screen" data-screen="landing">
      <main className="screen__body landing">
        <Placeholder
          header={<Title weight="1">{LL.landing.title()}</Title>}
          description={LL.landing.subtitle()}
        >
          <span className="landing__logo" aria-hidden="true">
            ₮
          </span>
        </Placeholder>
        <List>
          <Section header={LL.landing.chooseLanguage()}>
            <Cell
              data-language="ru"
              before={<span aria-hidden="true">🇷🇺</span>}
              onClick={() => choose('ru')}
            >
              {LL.landing.russian()}
            </Cell>
            <Cell
              data-language="en"
              before={<span aria-hidden="true">🇬🇧</span>}
              onClick={() => choose('en')}
            >
              {LL.landing.english()}
            </Cell>
          </Section>
        </List>
        <div className="landing__footer">
          <HealthIndicator />
          <Button
            mode="plain"
            size="s"
            onClick={() => openSupportLink(supportUrl, inTelegram)}
            data-testid="support-link"
          >
            {LL.landing.supportLink()}
          </Button>
          <Text className="landing__copyright">
            {LL.landing.copyright({ year: new Date().getFullYear() })}
          </Text>
        </div>
      </main>
    </div>
  );
}
