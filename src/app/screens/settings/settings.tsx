/**
 * `/settings`: the language, and the saved wallets and cards, each renamed in place (by the shared
 * schema's label rule) or deleted after a confirmation. Reached from the currencies screen.
 */
import { Button, Cell, List, Placeholder, Radio, Section, Text } from '@telegram-apps/telegram-ui';
import type { ReactNode } from 'react';
import type { Language } from '../../../shared/api';
import { NETWORKS } from '../../../shared/networks';
import { maskCardNumber } from '../../../shared/saved-details';
import type { SavedKind } from '../../../shared/schemas/saved-details';
import { deleteSaved, renameSaved } from '../../api/saved-details';
import { Loading } from '../../components/loading';
import { SavedItem } from '../../features/saved-details/saved-item';
import { shortAddress } from '../../components/saved-choices';
import { Screen } from '../../components/screen';
import { useSavedDetails, type SavedDetailsState } from '../../hooks/use-saved-details';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { hapticSelection } from '../../telegram/actions';

const LANGUAGES: readonly { readonly language: Language; readonly flag: string }[] = [
  { language: 'ru', flag: '🇷🇺' },
  { language: 'en', flag: '🇬🇧' },
];

export function Settings() {
  const { LL } = useI18nContext();
  const saved = useSavedDetails();
  return (
    <Screen
      testId="settings"
      header={{ title: LL.savedDetails.settingsTitle(), back: '/currencies' }}
    >
      <List>
        <LanguageChoice />
        <SavedLists saved={saved} />
      </List>
    </Screen>
  );
}

/** The two languages as radio choices: the chosen one is checked, not only coloured. */
function LanguageChoice() {
  const { LL } = useI18nContext();
  const { language, chooseLanguage } = useLanguage();
  return (
    <Section header={LL.savedDetails.language()}>
      <div role="radiogroup" aria-label={LL.savedDetails.language()}>
        {LANGUAGES.map((one) => {
          const name = one.language === 'ru' ? LL.landing.russian() : LL.landing.english();
          return (
            <Cell
              key={one.language}
              Component="label"
              data-language={one.language}
              before={<span aria-hidden="true">{one.flag}</span>}
              after={
                <Radio
                  name="language"
                  value={one.language}
                  // The kit's radio is a <label> of its own inside the cell's: named here.
                  aria-label={name}
                  checked={language === one.language}
                  onChange={() => {
                    hapticSelection();
                    chooseLanguage(one.language);
                  }}
                />
              }
            >
              {name}
            </Cell>
          );
        })}
      </div>
    </Section>
  );
}

function SavedLists({ saved }: { readonly saved: SavedDetailsState }) {
  const { LL } = useI18nContext();
  if (saved.failed) {
    return (
      <Placeholder description={LL.savedDetails.loadFailed()} data-testid="saved-failed">
        <Button size="s" mode="bezeled" onClick={saved.reload}>
          {LL.common.retry()}
        </Button>
      </Placeholder>
    );
  }
  if (saved.details === undefined) return <Loading />;
  const { wallets, cards } = saved.details;
  const rename = (kind: SavedKind, id: number) => (label: string) =>
    saved.write(() => renameSaved(kind, id, label));
  const remove = (kind: SavedKind, id: number) => () => saved.write(() => deleteSaved(kind, id));
  return (
    <>
      <SavedSection
        title={LL.savedDetails.wallets()}
        empty={LL.savedDetails.noWallets()}
        testId="settings-wallets"
      >
        {wallets.map((wallet) => (
          <SavedItem
            key={wallet.id}
            label={wallet.label}
            detail={`${NETWORKS[wallet.network].name} · ${shortAddress(wallet.address)}`}
            testId={`wallet-${wallet.id}`}
            onRename={rename('wallets', wallet.id)}
            onDelete={remove('wallets', wallet.id)}
          />
        ))}
      </SavedSection>
      <SavedSection
        title={LL.savedDetails.cards()}
        empty={LL.savedDetails.noCards()}
        testId="settings-cards"
      >
        {cards.map((card) => (
          <SavedItem
            key={card.id}
            label={card.label}
            detail={`${maskCardNumber(card.cardNumber)} · ${card.bankName}`}
            testId={`card-${card.id}`}
            onRename={rename('cards', card.id)}
            onDelete={remove('cards', card.id)}
          />
        ))}
      </SavedSection>
    </>
  );
}

/** A list of saved items under its title, or, with none, a sentence saying so plainly. */
function SavedSection({
  title,
  empty,
  testId,
  children,
}: {
  readonly title: string;
  readonly empty: string;
  readonly testId: string;
  readonly children: ReactNode[];
}) {
  return (
    <Section header={title} data-testid={testId}>
      {children.length === 0 ? (
        <Text className="saved-empty" data-testid={`${testId}-empty`}>
          {empty}
        </Text>
      ) : (
        <ul className="saved-items">{children}</ul>
      )}
    </Section>
  );
}
