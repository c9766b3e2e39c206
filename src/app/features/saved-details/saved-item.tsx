/**
 * One saved wallet or card in settings: its label and what identifies it, renamed in place (the
 * label checked by the shared schema's rule before it is sent) or deleted once the customer
 * confirms. A refused write is said under the item, in the customer's language.
 */
import { Button, Input, Text } from '@telegram-apps/telegram-ui';
import { useState } from 'react';
import { useEnvironment } from '../../environment-context';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { askConfirm, hapticError, hapticSuccess } from '../../telegram/actions';
import { failureText } from '../../components/failure-text';
import { FieldError } from '../../components/field-error';
import { checkSavedLabel } from './saved-label';

export interface SavedItemProps {
  readonly label: string;
  /** The network and short address, or the masked card and bank. */
  readonly detail: string;
  readonly testId: string;
  readonly onRename: (label: string) => Promise<void>;
  readonly onDelete: () => Promise<void>;
}

/** What an item does: its draft label while renamed, its last refusal, and its two writes. */
function useSavedItem(props: SavedItemProps) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const { inTelegram } = useEnvironment();
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (call: () => Promise<void>, headline: string): Promise<boolean> => {
    setBusy(true);
    try {
      await call();
      hapticSuccess();
      return true;
    } catch (failure) {
      hapticError();
      setError(failureText(failure, LL, headline, language));
      return false;
    } finally {
      setBusy(false);
    }
  };
  const edit = (next: string | null) => {
    setError(null);
    setDraft(next);
  };
  const rename = async () => {
    const checked = checkSavedLabel(draft ?? '', LL, language);
    if (!checked.ok) {
      hapticError();
      setError(checked.error);
      return;
    }
    const label = checked.label;
    if (await run(() => props.onRename(label), LL.savedDetails.renameFailed())) setDraft(null);
  };
  const remove = async () => {
    const sure = await askConfirm(
      LL.savedDetails.deleteConfirm({ label: props.label }),
      { ok: LL.savedDetails.delete(), cancel: LL.savedDetails.keep() },
      inTelegram,
    );
    if (sure) await run(props.onDelete, LL.savedDetails.deleteFailed());
  };
  return { draft, error, busy, edit, rename, remove };
}

export function SavedItem(props: SavedItemProps) {
  const { LL } = useI18nContext();
  const item = useSavedItem(props);
  return (
    <li className="saved-item" data-testid={props.testId}>
      {item.draft === null ? (
        <div className="saved-item__text">
          <Text weight="2" className="saved-item__label">
            {props.label}
          </Text>
          <Text className="saved-item__detail">{props.detail}</Text>
        </div>
      ) : (
        <Input
          header={LL.savedDetails.label()}
          aria-label={LL.savedDetails.newLabel({ label: props.label })}
          name="label"
          value={item.draft}
          status={item.error === null ? 'default' : 'error'}
          onChange={(event) => item.edit(event.target.value)}
        />
      )}
      {item.error !== null && <FieldError text={item.error} testId={`${props.testId}-error`} />}
      <div className="saved-item__actions">
        {item.draft === null ? (
          <ItemActions
            busy={item.busy}
            first={{
              text: LL.savedDetails.rename(),
              name: LL.savedDetails.renameItem({ label: props.label }),
              run: () => item.edit(props.label),
            }}
            second={{
              text: LL.savedDetails.delete(),
              name: LL.savedDetails.deleteItem({ label: props.label }),
              run: () => void item.remove(),
            }}
            loading="second"
          />
        ) : (
          <ItemActions
            busy={item.busy}
            first={{ text: LL.savedDetails.save(), run: () => void item.rename() }}
            second={{ text: LL.common.cancel(), run: () => item.edit(null) }}
            loading="first"
          />
        )}
      </div>
    </li>
  );
}

interface ItemAction {
  readonly text: string;
  /** The accessible name, when the text alone does not say which item it acts on. */
  readonly name?: string;
  readonly run: () => void;
}

/**
 * An item's two actions: the first bezeled, the second plain. While one runs, it shows it
 * (`loading`) and the other waits.
 */
function ItemActions({
  busy,
  first,
  second,
  loading,
}: {
  readonly busy: boolean;
  readonly first: ItemAction;
  readonly second: ItemAction;
  readonly loading: 'first' | 'second';
}) {
  const button = (action: ItemAction, mode: 'bezeled' | 'plain', runs: boolean) => (
    <Button
      type="button"
      size="s"
      mode={mode}
      aria-label={action.name}
      {...(runs ? { loading: busy } : { disabled: busy })}
      onClick={action.run}
    >
      {action.text}
    </Button>
  );
  return (
    <>
      {button(first, 'bezeled', loading === 'first')}
      {button(second, 'plain', loading === 'second')}
    </>
  );
}
