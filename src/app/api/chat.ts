/**
 * The order chat's calls, for either side: the customer's under /api/orders/{id}/chat, the
 * console's under /api/operator/orders/{id}/chat. Both read the chat the same way (polled with
 * If-None-Match), write a message the same way and download a message's file the same way; only
 * the paths, and what an operator sees more of each message, differ.
 */
import { API_PATHS, type ChatMessage, type ChatMessageBody } from '../../shared/api';
import { OPERATOR_PATHS, type OperatorChatMessage } from '../../shared/operator-api';
import { apiRequest, send, versionedPoller } from './client';

/** Who reads the chat: the order's customer, or an operator in the console. */
export type ChatSide = 'customer' | 'operator';

/** The messages each side reads. */
export interface ChatMessageOf {
  readonly customer: ChatMessage;
  readonly operator: OperatorChatMessage;
}

/** A chat as one side reads it: the order's verification code and its messages, oldest first. */
export interface ChatOf<S extends ChatSide> {
  readonly verificationCode: string;
  readonly messages: readonly ChatMessageOf[S][];
}

const PATHS = {
  customer: { chat: API_PATHS.chat, attachment: API_PATHS.chatAttachment },
  operator: { chat: OPERATOR_PATHS.chat, attachment: OPERATOR_PATHS.chatAttachment },
} as const satisfies Readonly<Record<ChatSide, unknown>>;

/** Reads the chat as a polling screen does: a 304 gives back the very chat kept (versionedPoller). */
export function chatPoller<S extends ChatSide>(
  side: S,
): (orderId: string, signal?: AbortSignal) => Promise<ChatOf<S>> {
  return versionedPoller(PATHS[side].chat, (body) => body as ChatOf<S>);
}

/** Writes a message (text, a file, or both); the answer is the message as written. */
export function sendChatMessage<S extends ChatSide>(
  side: S,
  orderId: string,
  body: ChatMessageBody,
): Promise<ChatMessageOf[S]> {
  return apiRequest<ChatMessageOf[S]>(PATHS[side].chat(orderId), { method: 'POST', body });
}

/** A message's file, downloaded with the caller's identity (no plain link can carry it). */
export async function fetchChatAttachment(
  side: ChatSide,
  orderId: string,
  messageId: number,
): Promise<Blob> {
  return (await send(PATHS[side].attachment(orderId, messageId), {}, '*/*')).blob();
}
