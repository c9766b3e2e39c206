/**
 * How a file crosses the API, for every call that takes or gives one (a receipt, a file in an
 * order's chat): a body read as it arrives, its file written to disk as it is decoded
 * (receipt-json.ts, receipt-body.ts); a file sent as a download.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ReceivedDataUrl } from './receipt-body';
import { parseReceiptJson } from './receipt-json';
import type { ReceiptDownload } from './receipts';

/**
 * The scope's JSON bodies read as a receipt's: `fileData` decoded to a file as it arrives. The
 * file, when the call did not keep it (refused, or a body that failed its schema), is gone before
 * the answer leaves; a kept one was renamed already.
 */
export function readsFileBodies(scope: FastifyInstance): void {
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', parseReceiptJson);
  scope.addHook('onSend', async (request, _reply, payload) => {
    const { fileData } = (request.body ?? {}) as { fileData?: unknown };
    if (fileData instanceof ReceivedDataUrl) await fileData.discard();
    return payload;
  });
}

/** A stored file sent as a download: never cached, never shown in place of the app. */
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
