/**
 * An order's chat as either side holds it open: read now and again every `pollMs` with
 * If-None-Match (a chat nobody wrote in since costs a 304, as a status poll does), the messages
 * this tab sent shown at once, before the next read brings them, and a send that keeps what was
 * typed and picked until the server took it: a failed send loses nothing.
 */
import { useCallback, useMemo, useState } from 'react';
import {
  chatPoller,
  sendChatMessage,
  type ChatMessageOf,
  type ChatOf,
  type ChatSide,
} from '../api/chat';
import { ApiError } from '../api/client';
import { fileBody } from './use-file-choice';
import { useFetchState } from './use-fetch-state';

export interface OrderChat<S extends ChatSide> {
  /** The order's verification code, once the chat was read. */
  readonly verificationCode: string | undefined;
  /** Oldest first; undefined until the first read. */
  readonly messages: readonly ChatMessageOf[S][] | undefined;
  /** The last read failed (the next poll tries again). */
  readonly failed: boolean;
  /** The order is missing or not the reader's: final, nothing more is asked. */
  readonly notFound: boolean;
  /** A send is running. */
  readonly sending: boolean;
  /** Sends a message; resolves true once the server took it, false (with `sendError`) if not. */
  readonly send: (text: string, file: File | null) => Promise<boolean>;
  /** Why the last send failed; cleared by the next send. */
  readonly sendError: unknown;
}

/** The chat read so far, with the messages this tab sent that no read has brought yet. */
export function withSent<M extends { readonly id: number }>(
  read: readonly M[],
  sent: readonly M[],
): readonly M[] {
  const known = new Set(read.map((message) => message.id));
  const pending = sent.filter((message) => !known.has(message.id));
  if (pending.length === 0) return read;
  return [...read, ...pending].sort((a, b) => a.id - b.id);
}

export function useOrderChat<S extends ChatSide>(
  side: S,
  orderId: string,
  options: { readonly pollMs: number; readonly onRead?: (chat: ChatOf<S>) => void },
): OrderChat<S> {
  const [poll] = useState(() => chatPoller(side));
  const [notFound, setNotFound] = useState(false);
  const fetched = useFetchState(orderId, (signal) => poll(orderId, signal), {
    intervalMs: options.pollMs,
    enabled: !notFound,
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'ORDER_NOT_FOUND') setNotFound(true);
    },
    ...(options.onRead === undefined ? {} : { onData: options.onRead }),
  });
  const [sent, setSent] = useState<readonly ChatMessageOf[S][]>([]);
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState<unknown>(undefined);

  const send = useCallback(
    async (text: string, file: File | null) => {
      setSending(true);
      setSendError(undefined);
      try {
        const message = await sendChatMessage(side, orderId, {
          text,
          ...(file === null ? {} : await fileBody(file)),
        });
        setSent((before) => [...before, message]);
        return true;
      } catch (error) {
        setSendError(error);
        return false;
      } finally {
        setSending(false);
      }
    },
    [side, orderId],
  );

  const read = fetched.data?.messages;
  const messages = useMemo(
    () => (read === undefined ? undefined : withSent(read, sent)),
    [read, sent],
  );
  return {
    verificationCode: fetched.data?.verificationCode,
    messages,
    failed: !notFound && fetched.error !== undefined,
    notFound,
    sending,
    send,
    sendError,
  };
}
