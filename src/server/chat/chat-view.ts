/** A chat's stored messages as each side reads them. */
import type { ChatAttachment, ChatMessage } from '../../shared/api';
import type { OperatorChatMessage } from '../../shared/operator-api';
import type { MessageRow } from './chat';

function attachmentOf(row: MessageRow): ChatAttachment | null {
  const { attachment_name: fileName, attachment_type: mimeType, attachment_size: size } = row;
  if (fileName === null || mimeType === null || size === null) return null;
  return { fileName, mimeType, sizeBytes: size };
}

/** A message as the order's customer reads it. */
export function toChatMessage(row: MessageRow): ChatMessage {
  return {
    id: row.id,
    author: row.author,
    text: row.text,
    attachment: attachmentOf(row),
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** A message as operators read it: who wrote it, and its file's digest. */
export function toOperatorChatMessage(row: MessageRow): OperatorChatMessage {
  const attachment = attachmentOf(row);
  return {
    ...toChatMessage(row),
    authorId: row.author_id,
    attachment: attachment === null ? null : { ...attachment, sha256: row.attachment_sha256 ?? '' },
  };
}
