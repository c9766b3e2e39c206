/** How a file crosses the API (a receipt, a chat file): decoded to disk on arrival; downloads. */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ReceivedDataUrl } from './receipt-body';
import { parseReceiptJson } from './receipt-json';
import type { ReceiptDownload } from './receipts';

/** A file the call did not keep is gone before the answer leaves; a kept one was renamed. */
export function readsFileBodies(scope: FastifyInstance): void {
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', parseReceiptJson);
  scope.addHook('onSend', async (request, _reply, payload) => {
    const { fileData } = (request.body ?? {}) as { fileData?: unknown };
    if (fileData instanceof ReceivedDataUrl) await fileData.discard();
    return payload;
  });
}

/** Never cached, never shown in place of the app. */
export function sendDownload(reply: FastifyReply, download: ReceiptDownload): FastifyReply {
  return reply
    .header('content-type', download.mimeType)
    .header('cache-control', 'private, no-store')
    .header(
      'content-disposition',
      `attachment; filename*=UTF-8''${encodeURIComponent(download.fileName)}`,
    )
    .send(download.file);
}
