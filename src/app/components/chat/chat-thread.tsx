/**
 * An order's chat as either side shows it: the messages in order, each side's apart by where it
 * stands and by its author's name (never by colour alone), with its time and its file (an image
 * as a thumbnail, any other file as a named link, downloaded with the reader's identity), and
 * on each of the exchange's the order's verification code; under
 * them the field, the attach button and send. Text is shown as text, never as markup, and wraps
 * whole whatever it holds (a long word, emoji, right-to-left script).
 */
import { Button } from '@telegram-apps/telegram-ui';
import { useEffect, useRef, useState } from 'react';
import { CHAT_TEXT_MAX_CHARS } from '../../../shared/limits';
import { FilePickerInput } from '../file-picker-input';
import { fetchChatAttachment, type ChatMessageOf, type ChatSide } from '../../api/chat';
import { useDateTime } from '../../hooks/use-date-time';
import { useDownloadedFile } from '../../hooks/use-downloaded-file';
import { PREVIEWABLE, useFileChoice } from '../../hooks/use-file-choice';
import type { OrderChat } from '../../hooks/use-order-chat';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { failureText } from '../failure-text';

export interface ChatThreadProps<S extends ChatSide> {
  readonly side: S;
  readonly orderId: string;
  readonly chat: OrderChat<S>;
  /** Who wrote a message, in the reader's words ("You", "Exchange"; "customer", "operator 7"). */
  readonly authorLabel: (message: ChatMessageOf[S]) => string;
  /** What the chat says while nobody has written. */
  readonly emptyText: string;
  /** Bring a newly arrived message into view (the chat's own screen, not the console's pane). */
  readonly followNewest?: boolean;
}

export function ChatThread<S extends ChatSide>(props: ChatThreadProps<S>) {
  const { LL } = useI18nContext();
  const { chat } = props;
  return (
    <section className="chat" aria-label={LL.chat.messages()} data-testid="chat">
      {chat.failed && (
        <p className="warning-box warning-box--danger" role="status">
          {LL.chat.loadError()}
        </p>
      )}
      {chat.messages !== undefined && chat.messages.length === 0 && (
        <p className="chat__empty">{props.emptyText}</p>
      )}
      {chat.messages !== undefined && chat.messages.length > 0 && <MessageList {...props} />}
      <Composer side={props.side} chat={chat} />
    </section>
  );
}

function MessageList<S extends ChatSide>({
  side,
  orderId,
  chat,
  authorLabel,
  followNewest = false,
}: ChatThreadProps<S>) {
  const { LL } = useI18nContext();
  const date = useDateTime();
  const last = useRef<HTMLLIElement>(null);
  const messages = chat.messages ?? [];
  // Every message of the exchange carries the order's verification code, as its bot messages do.
  const code = chat.verificationCode;
  const newest = messages.at(-1)?.id;
  useEffect(() => {
    const element = last.current;
    // Not every DOM has it (jsdom, in the app's tests).
    if (followNewest && element !== null && 'scrollIntoView' in element) {
      element.scrollIntoView({ block: 'end' });
    }
  }, [followNewest, newest]);
  return (
    <ol className="chat__messages">
      {messages.map((message) => {
        const mine = message.author === side;
        return (
          <li
            key={message.id}
            ref={message.id === newest ? last : undefined}
            className={`chat-message chat-message--${mine ? 'mine' : 'theirs'}`}
            data-author={message.author}
            data-message-id={message.id}
          >
            <span className="chat-message__author">{authorLabel(message)}</span>
            {message.attachment !== null && (
              <ChatAttachment
                side={side}
                orderId={orderId}
                messageId={message.id}
                fileName={message.attachment.fileName}
                mimeType={message.attachment.mimeType}
              />
            )}
            {message.text !== null && (
              <p className="chat-message__text" dir="auto">
                {message.text}
              </p>
            )}
            <p className="chat-message__footer">
              {message.author === 'operator' && code !== undefined && (
                <span className="chat-message__code" data-testid="chat-message-code">
                  {LL.chat.messageCode({ code })}
                </span>
              )}
              <time className="chat-message__time" dateTime={message.createdAt}>
                {date(message.createdAt)}
              </time>
            </p>
          </li>
        );
      })}
    </ol>
  );
}

/** A message's file: an image as a thumbnail opening the whole, any other file as its named link. */
export function ChatAttachment({
  side,
  orderId,
  messageId,
  fileName,
  mimeType,
}: {
  readonly side: ChatSide;
  readonly orderId: string;
  readonly messageId: number;
  readonly fileName: string;
  readonly mimeType: string;
}) {
  const url = useDownloadedFile(`${side}/${orderId}/${messageId}`, () =>
    fetchChatAttachment(side, orderId, messageId),
  );
  const image = PREVIEWABLE.has(mimeType);
  if (url === undefined) {
    return <span className="chat-message__file">{fileName}</span>;
  }
  return (
    <a
      className={image ? 'chat-message__thumb' : 'chat-message__file'}
      href={url}
      download={image ? undefined : fileName}
      target="_blank"
      rel="noopener noreferrer"
      data-testid="chat-attachment"
    >
      {image ? (
        <img className="chat-message__image" src={url} alt={fileName} />
      ) : (
        <>
          <span aria-hidden="true">📄 </span>
          {fileName}
        </>
      )}
    </a>
  );
}

/** The field, the file picked for the message, attach and send. What failed to go stays. */
function Composer<S extends ChatSide>({
  side,
  chat,
}: {
  readonly side: S;
  readonly chat: OrderChat<S>;
}) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const [text, setText] = useState('');
  const { input, picked, choose, remove } = useFileChoice();
  const submit = async () => {
    if (chat.sending) return;
    const sent = await chat.send(text, picked?.file ?? null);
    if (!sent) return;
    setText('');
    remove();
  };
  return (
    <form
      className="chat__composer"
      data-side={side}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {chat.sendError !== undefined && (
        <p className="warning-box warning-box--danger chat__error" role="alert">
          {failureText(chat.sendError, LL, LL.chat.sendError(), language)}
        </p>
      )}
      <textarea
        className="chat__field"
        value={text}
        onChange={(event) => setText(event.target.value)}
        aria-label={LL.chat.field()}
        placeholder={LL.chat.field()}
        maxLength={CHAT_TEXT_MAX_CHARS}
        rows={3}
        dir="auto"
        data-testid="chat-field"
      />
      <FilePickerInput inputRef={input} choose={choose} testId="chat-file-input" />
      {picked !== null && (
        <p className="chat__picked" data-testid="chat-picked">
          <span className="chat__picked-name">{picked.file.name}</span>
          <Button size="s" mode="plain" type="button" onClick={remove}>
            {LL.chat.removeFile()}
          </Button>
        </p>
      )}
      <div className="chat__buttons">
        <Button
          size="m"
          mode="bezeled"
          type="button"
          onClick={() => input.current?.click()}
          aria-label={LL.chat.attach()}
          data-testid="chat-attach"
        >
          📎
        </Button>
        <Button size="m" stretched type="submit" loading={chat.sending} data-testid="chat-send">
          {LL.chat.send()}
        </Button>
      </div>
    </form>
  );
}
