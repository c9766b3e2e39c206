/**
 * `/order/{orderId}/appeal`: the customer asks a senior operator to decide the order. A reason
 * from the catalogue, their words, and the files that show it: ticked among those already in the
 * order's chat, or a new one, which goes to the chat first (the appeal names chat messages) and
 * is then named by its id. Once the appeal is open the screen shows its state, as every order
 * screen does; where the rule takes none, it says why.
 */
import { Button, Cell, Checkbox, List, Radio, Section, Textarea } from '@telegram-apps/telegram-ui';
import { ScreenButton } from '../../components/screen-action-button';
import { useState } from 'react';
import * as v from 'valibot';
import type { ChatMessage } from '../../../shared/api';
import { APPEAL_REASONS, type AppealReason } from '../../../shared/appeals';
import { CHAT_TEXT_MAX_CHARS } from '../../../shared/limits';
import { FilePickerInput } from '../../components/file-picker-input';
import { APPEAL_EVIDENCE_MAX, OpenAppealSchema } from '../../../shared/schemas/appeals';
import { sendChatMessage } from '../../api/chat';
import { fetchOrder, openAppeal } from '../../api/orders';
import { failureText } from '../../components/failure-text';
import { FieldError } from '../../components/field-error';
import { Loading } from '../../components/loading';
import { AppealNote, orderAppealRefusal } from '../../components/order-appeal';
import { chatBackPath } from '../../components/order-chat-button';
import { OrderNotFoundScreen } from '../../components/order-not-found';
import { Screen } from '../../components/screen';
import { ApiError } from '../../api/client';
import { useFetchState } from '../../hooks/use-fetch-state';
import { fileBody, useFileChoice } from '../../hooks/use-file-choice';
import { useOrderChat } from '../../hooks/use-order-chat';
import { noteOrder } from '../../hooks/use-seen-order';
import { useI18nContext, useLanguage } from '../../i18n/language';

/** What the form holds before it is sent. */
export interface AppealFields {
  readonly reason: AppealReason | null;
  readonly text: string;
  /** The chat messages ticked as evidence. */
  readonly ticked: readonly number[];
  /** Whether a new file goes with the appeal (it takes one more place among the evidence). */
  readonly newFile: boolean;
}

/** What keeps the form from going, or null when it may be sent. */
export type AppealFormProblem = 'chooseReason' | 'tooManyFiles';

/** The form's own checks, before any file is sent to the chat: a reason, and not too many files. */
export function appealFormProblem(fields: AppealFields): AppealFormProblem | null {
  if (fields.reason === null) return 'chooseReason';
  if (fields.ticked.length + (fields.newFile ? 1 : 0) > APPEAL_EVIDENCE_MAX) return 'tooManyFiles';
  return null;
}

/** The appeal's body as the server takes it: the new file's message id joins the ticked ones. */
export function appealBody(
  fields: AppealFields & { readonly reason: AppealReason },
  newFileId: number | null,
): v.InferOutput<typeof OpenAppealSchema> {
  return v.parse(OpenAppealSchema, {
    reason: fields.reason,
    text: fields.text,
    evidence: newFileId === null ? fields.ticked : [...fields.ticked, newFileId],
  });
}

/** How often the order's chat is asked again while the form is open (files sent elsewhere). */
const CHAT_POLL_MS = 10_000;

type ChatFile = ChatMessage & { readonly attachment: NonNullable<ChatMessage['attachment']> };

/** The form's state and its sending: a new file goes to the chat first, once. */
function useAppealForm(orderId: string, onOpened: () => void) {
  const [reason, setReason] = useState<AppealReason | null>(null);
  const [text, setText] = useState('');
  const [ticked, setTicked] = useState<readonly number[]>([]);
  const file = useFileChoice();
  // A new file already in the chat (a failed appeal is sent again without sending it twice).
  const [sentFile, setSentFile] = useState<{ readonly file: File; readonly id: number } | null>(
    null,
  );
  const [problem, setProblem] = useState<AppealFormProblem | null>(null);
  const [failure, setFailure] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);

  const newFileId = async (picked: File): Promise<number> => {
    if (sentFile?.file === picked) return sentFile.id;
    const message = await sendChatMessage('customer', orderId, {
      text: '',
      ...(await fileBody(picked)),
    });
    setSentFile({ file: picked, id: message.id });
    return message.id;
  };

  const submit = async () => {
    if (busy) return;
    const fields = { reason, text, ticked, newFile: file.picked !== null };
    const found = appealFormProblem(fields);
    setProblem(found);
    if (found !== null || fields.reason === null) return;
    setBusy(true);
    setFailure(undefined);
    try {
      const id = file.picked === null ? null : await newFileId(file.picked.file);
      await openAppeal(orderId, appealBody({ ...fields, reason: fields.reason }, id));
      onOpened();
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  const choose = (one: AppealReason) => {
    setReason(one);
    setProblem(null);
  };
  const tick = (id: number, on: boolean) => {
    setTicked((before) => (on ? [...before, id] : before.filter((one) => one !== id)));
    setProblem(null);
  };
  return { reason, choose, text, setText, ticked, tick, file, problem, failure, busy, submit };
}

type AppealFormState = ReturnType<typeof useAppealForm>;

/** The catalogue's reasons, one to choose. */
function ReasonSection({ form }: { readonly form: AppealFormState }) {
  const { LL } = useI18nContext();
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
                checked={form.reason === one}
                onChange={() => form.choose(one)}
              />
            }
          >
            {LL.appeals.reasons[one]()}
          </Cell>
        ))}
      </div>
      {form.problem === 'chooseReason' && (
        <FieldError text={LL.appeals.chooseReason()} testId="appeal-reason-error" />
      )}
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
              checked={form.ticked.includes(message.id)}
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
      {form.problem === 'tooManyFiles' && (
        <FieldError
          text={LL.appeals.tooManyFiles({ max: APPEAL_EVIDENCE_MAX })}
          testId="appeal-files-error"
        />
      )}
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
        <Section header={LL.appeals.text()}>
          <Textarea
            value={form.text}
            onChange={(event) => form.setText(event.target.value)}
            aria-label={LL.appeals.text()}
            maxLength={CHAT_TEXT_MAX_CHARS}
            rows={4}
            dir="auto"
            data-testid="appeal-text"
          />
        </Section>
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
  const back = chatBackPath(orderId);
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
