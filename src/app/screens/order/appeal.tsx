/**
 * `/order/{orderId}/appeal`: the customer asks a senior operator to decide the order. A reason
 * from the catalogue, their words, and the files that show it: ticked among those already in the
 * order's chat, or a new one, which goes to the chat first (the appeal names chat messages) and
 * is then named by its id. The form is react-hook-form's over the shared AppealFormSchema (the
 * rules the server keeps too), its messages translated as they are shown. Once the appeal is open
 * the screen shows its state, as every order screen does; where the rule takes none, it says why.
 */
import { Button, Cell, Checkbox, List, Radio, Section, Textarea } from '@telegram-apps/telegram-ui';
import { valibotResolver } from '@hookform/resolvers/valibot';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { ChatMessage } from '../../../shared/api';
import { APPEAL_REASONS } from '../../../shared/appeals';
import { CHAT_TEXT_MAX_CHARS } from '../../../shared/limits';
import {
  APPEAL_EVIDENCE_MAX,
  AppealFormSchema,
  openAppealBody,
  type AppealFormOutput,
  type AppealFormValues,
} from '../../../shared/schemas/appeals';
import type { AppealFormErrorKey } from '../../../shared/schemas/form-errors';
import { FilePickerInput } from '../../components/file-picker-input';
import { formErrorText } from '../../components/form-error-text';
import { ScreenButton } from '../../components/screen-action-button';
import { sendChatMessage } from '../../api/chat';
import { fetchOrder, openAppeal } from '../../api/orders';
import { failureText } from '../../components/failure-text';
import { FieldError } from '../../components/field-error';
import { Loading } from '../../components/loading';
import { AppealNote, orderAppealRefusal } from '../../features/order/order-appeal';
import { sideScreenBackPath } from '../../features/order/order-chat-button';
import { OrderNotFoundScreen } from '../../features/order/order-not-found';
import { Screen } from '../../components/screen';
import { ApiError } from '../../api/client';
import { fieldSetter } from '../../forms';
import { useFetchState } from '../../hooks/use-fetch-state';
import { fileBody, useFileChoice } from '../../hooks/use-file-choice';
import { useOrderChat } from '../../hooks/use-order-chat';
import { noteOrder } from '../../features/order/use-seen-order';
import { useI18nContext, useLanguage } from '../../i18n/language';

/** How often the order's chat is asked again while the form is open (files sent elsewhere). */
const CHAT_POLL_MS = 10_000;

type ChatFile = ChatMessage & { readonly attachment: NonNullable<ChatMessage['attachment']> };

/**
 * The form's fields, checked by the shared schema, and its sending: a new file goes to the chat
 * first, once.
 */
function useAppealForm(orderId: string, onOpened: () => void) {
  const form = useForm<AppealFormValues, unknown, AppealFormOutput>({
    resolver: valibotResolver(AppealFormSchema),
    defaultValues: { reason: null, text: '', ticked: [], newFile: false },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const set = fieldSetter(form);
  const file = useFileChoice({
    onChange: (picked) => {
      form.setValue('newFile', picked !== null);
      // The new file is counted with the ticked ones, and the count is said under them.
      if (form.formState.isSubmitted) void form.trigger('ticked');
    },
  });
  // A new file already in the chat (a failed appeal is sent again without sending it twice).
  const [sentFile, setSentFile] = useState<{ readonly file: File; readonly id: number } | null>(
    null,
  );
  const [failure, setFailure] = useState<unknown>(undefined);

  const newFileId = async (picked: File): Promise<number> => {
    if (sentFile?.file === picked) return sentFile.id;
    const message = await sendChatMessage('customer', orderId, {
      text: '',
      ...(await fileBody(picked)),
    });
    setSentFile({ file: picked, id: message.id });
    return message.id;
  };

  const send = form.handleSubmit(async (values) => {
    setFailure(undefined);
    try {
      const id = file.picked === null ? null : await newFileId(file.picked.file);
      await openAppeal(orderId, openAppealBody(values, id));
      onOpened();
    } catch (error) {
      setFailure(error);
    }
  });
  const busy = form.formState.isSubmitting;
  const submit = () => (busy ? Promise.resolve() : send());
  const tick = (id: number, on: boolean) => {
    const before = form.getValues('ticked');
    set('ticked', on ? [...before, id] : before.filter((one) => one !== id));
  };
  return { form, set, tick, file, failure, busy, submit };
}

type AppealFormState = ReturnType<typeof useAppealForm>;

/**
 * The text of a form error's key, translated as it is shown: the appeal's own rules, or the
 * words' text rules.
 */
function useAppealErrorText(): (key: string | undefined) => string | null {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  return (key) => {
    switch (key as AppealFormErrorKey | undefined) {
      case 'chooseReason':
        return LL.appeals.chooseReason();
      case 'tooManyFiles':
        return LL.appeals.tooManyFiles({ max: APPEAL_EVIDENCE_MAX });
      default:
        return formErrorText(key, LL, { language });
    }
  };
}

/** A field's value, and the text of its error in the customer's language (null while it passes). */
function useAppealField<N extends keyof AppealFormValues>(form: AppealFormState, name: N) {
  const value = useWatch({ control: form.form.control, name });
  const error = useAppealErrorText()(form.form.formState.errors[name]?.message);
  return { value, error };
}

/** The catalogue's reasons, one to choose. */
function ReasonSection({ form }: { readonly form: AppealFormState }) {
  const { LL } = useI18nContext();
  const { value: reason, error } = useAppealField(form, 'reason');
  return (
    <Section header={LL.appeals.reason()}>
      <div role="radiogroup" aria-label={LL.appeals.reason()}>
        {APPEAL_REASONS.map((one) => (
          <Cell
            key={one}
            Component="label"
            multiline
            data-reason={one}
            after={
              <Radio
                name="reason"
                value={one}
                // The kit's radio is a <label> of its own inside the cell's: named here.
                aria-label={LL.appeals.reasons[one]()}
                checked={reason === one}
                onChange={() => form.set('reason', one)}
              />
            }
          >
            {LL.appeals.reasons[one]()}
          </Cell>
        ))}
      </div>
      {error !== null && <FieldError text={error} testId="appeal-reason-error" />}
    </Section>
  );
}

/** The customer's words, marked and explained while they do not pass the text's rules. */
function TextSection({ form }: { readonly form: AppealFormState }) {
  const { LL } = useI18nContext();
  const { value: text, error } = useAppealField(form, 'text');
  return (
    <Section header={LL.appeals.text()}>
      <Textarea
        value={text}
        onChange={(event) => form.set('text', event.target.value)}
        aria-label={LL.appeals.text()}
        maxLength={CHAT_TEXT_MAX_CHARS}
        rows={4}
        dir="auto"
        status={error === null ? 'default' : 'error'}
        data-testid="appeal-text"
      />
      {error !== null && <FieldError text={error} testId="appeal-text-error" />}
    </Section>
  );
}

/** The chat's files to tick, and a new one to attach. */
function EvidenceSection({
  form,
  files,
  loaded,
}: {
  readonly form: AppealFormState;
  readonly files: readonly ChatFile[];
  readonly loaded: boolean;
}) {
  const { LL } = useI18nContext();
  const { input, picked, choose, remove } = form.file;
  const { value: ticked, error } = useAppealField(form, 'ticked');
  return (
    <Section header={LL.appeals.evidence()}>
      {loaded && files.length === 0 && (
        <Cell multiline data-testid="appeal-no-files">
          {LL.appeals.noFiles()}
        </Cell>
      )}
      {files.map((message) => (
        <Cell
          key={message.id}
          Component="label"
          multiline
          data-message={message.id}
          after={
            <Checkbox
              aria-label={message.attachment.fileName}
              checked={ticked.includes(message.id)}
              onChange={(event) => form.tick(message.id, event.target.checked)}
            />
          }
        >
          {message.attachment.fileName}
        </Cell>
      ))}
      <FilePickerInput inputRef={input} choose={choose} testId="appeal-file-input" />
      {picked === null ? (
        <Cell onClick={() => input.current?.click()} data-testid="appeal-attach">
          <span className="copy-hint">{LL.appeals.attach()}</span>
        </Cell>
      ) : (
        <Cell
          multiline
          data-testid="appeal-picked"
          after={
            <Button size="s" mode="plain" type="button" onClick={remove}>
              {LL.appeals.removeFile()}
            </Button>
          }
        >
          {picked.file.name}
        </Cell>
      )}
      {error !== null && <FieldError text={error} testId="appeal-files-error" />}
    </Section>
  );
}

function AppealForm({
  orderId,
  onOpened,
}: {
  readonly orderId: string;
  readonly onOpened: () => void;
}) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const chat = useOrderChat('customer', orderId, { pollMs: CHAT_POLL_MS });
  const files = (chat.messages ?? []).filter(
    (message): message is ChatFile => message.attachment !== null,
  );
  const form = useAppealForm(orderId, onOpened);
  return (
    <form
      noValidate
      data-testid="appeal-form"
      onSubmit={(event) => {
        event.preventDefault();
        void form.submit();
      }}
    >
      <p className="warning-box" data-testid="appeal-intro">
        {LL.appeals.intro()}
      </p>
      <List>
        <ReasonSection form={form} />
        <TextSection form={form} />
        <EvidenceSection form={form} files={files} loaded={chat.messages !== undefined} />
      </List>
      <div className="screen__actions">
        {form.failure !== undefined && (
          <p className="warning-box warning-box--danger" role="alert" data-testid="appeal-error">
            {failureText(form.failure, LL, LL.appeals.sendError(), language)}
          </p>
        )}
        <ScreenButton type="submit" loading={form.busy} testId="appeal-submit">
          {LL.appeals.submit()}
        </ScreenButton>
      </div>
    </form>
  );
}

export function AppealScreen({ orderId }: { readonly orderId: string }) {
  const { LL } = useI18nContext();
  const back = sideScreenBackPath(orderId);
  const fetched = useFetchState(orderId, (signal) => fetchOrder(orderId, signal), {
    onData: noteOrder,
  });
  const order = fetched.data;
  const refusal = order === undefined ? null : orderAppealRefusal(order);
  if (fetched.error instanceof ApiError && fetched.error.code === 'ORDER_NOT_FOUND') {
    return <OrderNotFoundScreen testId="appeal" orderId={orderId} back={back} />;
  }
  let body;
  if (order === undefined) body = fetched.error === undefined ? <Loading /> : null;
  else if (order.appeal !== null) {
    body = (
      <div className="screen__actions">
        <AppealNote appeal={order.appeal} status={order.status} />
      </div>
    );
  } else if (refusal !== null) {
    body = (
      <p className="warning-box" data-testid="appeal-refused" data-code={refusal}>
        {LL.apiErrors[refusal]()}
      </p>
    );
  } else body = <AppealForm orderId={orderId} onOpened={fetched.reload} />;
  return (
    <Screen testId="appeal" header={{ title: LL.appeals.title(), back }}>
      {body}
    </Screen>
  );
}
