/**
 * A receipt upload's body, read as it arrives (issue 22, item 5). The body of
 * `POST /api/orders/{id}/receipt` is JSON, `{ "fileName": …, "fileData": "data:<type>;base64,<data>",
 * "fileSize": … }`, and its fileData holds a 10 MB file as 13.3 MB of base64. Read as one string,
 * parsed and decoded, an upload held over 50 MB of strings, and three at once took the server
 * past 300 MB. Here the top-level fileData string is never made a string: its base64 is decoded
 * chunk by chunk, as the bytes come in, into one Buffer of the file's size, and the rest of the
 * JSON (a few hundred bytes) is parsed as usual, fileData standing in it as a ReceivedDataUrl.
 *
 * What is refused is what `data:` URLs in JSON strings can be refused for, judged when the file
 * is checked (receipts.ts, `checkReceiptFile`): a header that is not `data:<type>;base64`, a
 * character outside base64 (whitespace, written or escaped as \n, \r, \t, is skipped; `\/` is a
 * slash; any other escape is refused), an impossible length, nothing at all, more than
 * RECEIPT_MAX_BYTES.
 */
import { RECEIPT_MAX_BYTES } from '../../shared/limits';

/** Why a data URL is not a file, in the API's codes. */
export type DataUrlProblem = 'VALIDATION_FAILED' | 'NO_FILE' | 'FILE_TOO_LARGE';

/** The fileData of a receipt upload, decoded: its bytes, or why there are none. */
export class ReceivedDataUrl {
  constructor(
    readonly bytes: Buffer,
    readonly problem: DataUrlProblem | undefined,
  ) {}
}

/** The most a header (`data:image/png;base64`) may take before its comma. */
const HEADER_MAX = 256;
const HEADER = /^data:[\w.+/-]*(;[\w=.+-]+)*;base64$/i;
const BASE64 = /^[A-Za-z0-9+/]*(=*)$/;
const WHITESPACE = /\s/g;

/**
 * Decodes one data URL (or bare base64) given piece by piece, as the characters of a JSON
 * string's content with its escapes already resolved.
 */
class DataUrlDecoder {
  #head = '';
  #inData = false;
  #leftover = '';
  #characters = 0;
  #padding = 0;
  #written = 0;
  #problem: DataUrlProblem | undefined;
  readonly #out: Buffer;

  /** `capacity`: the most bytes the file can have, from the body's announced length. */
  constructor(capacity: number) {
    this.#out = Buffer.allocUnsafe(Math.min(capacity, RECEIPT_MAX_BYTES) + 3);
  }

  fail(problem: DataUrlProblem): void {
    this.#problem ??= problem;
  }

  push(text: string): void {
    if (this.#problem !== undefined) return;
    if (this.#inData) {
      this.#data(text);
      return;
    }
    this.#head += text;
    const comma = this.#head.indexOf(',');
    if (comma !== -1) {
      if (!HEADER.test(this.#head.slice(0, comma))) {
        this.fail('VALIDATION_FAILED');
        return;
      }
      const rest = this.#head.slice(comma + 1);
      this.#inData = true;
      this.#head = '';
      this.#data(rest);
    } else if (this.#head.length > HEADER_MAX) {
      // No header: bare base64, as the app never sends but the API takes.
      const all = this.#head;
      this.#inData = true;
      this.#head = '';
      this.#data(all);
    }
  }

  #data(text: string): void {
    const characters = text.replace(WHITESPACE, '');
    if (characters === '') return;
    // `=` only at the very end, two at most, wherever the pieces were cut.
    const padding = BASE64.exec(characters)?.[1]?.length;
    const afterPadding = this.#padding > 0 && padding !== characters.length;
    if (padding === undefined || afterPadding || this.#padding + padding > 2) {
      this.fail('VALIDATION_FAILED');
      return;
    }
    this.#padding += padding;
    this.#characters += characters.length;
    const pending = this.#leftover + characters;
    const whole = pending.length - (pending.length % 4);
    this.#write(pending.slice(0, whole));
    this.#leftover = pending.slice(whole);
  }

  #write(base64: string): void {
    if (base64 === '' || this.#problem !== undefined) return;
    // Decoded, it is at most 3 bytes for every 4 characters.
    if (this.#written + (base64.length / 4) * 3 > this.#out.length) {
      this.fail('FILE_TOO_LARGE');
      return;
    }
    this.#written += this.#out.write(base64, this.#written, 'base64');
    if (this.#written > RECEIPT_MAX_BYTES) this.fail('FILE_TOO_LARGE');
  }

  end(): ReceivedDataUrl {
    if (!this.#inData) {
      const all = this.#head;
      this.#inData = true;
      this.#head = '';
      this.#data(all);
    }
    if (this.#problem === undefined) {
      if (this.#characters === 0) this.fail('NO_FILE');
      else if (this.#characters % 4 === 1) this.fail('VALIDATION_FAILED');
      else this.#write(this.#leftover);
    }
    return new ReceivedDataUrl(this.#out.subarray(0, this.#written), this.#problem);
  }
}

/** The body was more than it may be. */
export class BodyTooLarge extends Error {}

/**
 * Reads a receipt upload's body from `chunks`: the JSON text with its top-level fileData string
 * replaced by `""`, and that string decoded. `restLimit` bounds what is kept of the rest;
 * `capacity` is the most the file can decode to.
 */
export async function readReceiptBody(
  chunks: AsyncIterable<Buffer>,
  options: { readonly capacity: number; readonly bodyLimit: number; readonly restLimit: number },
): Promise<{ readonly rest: string; readonly file: ReceivedDataUrl | undefined }> {
  const rest: Buffer[] = [];
  let restLength = 0;
  let received = 0;
  // The JSON around the value: depth, inside a string or not, a key being read at depth 1.
  let depth = 0;
  let inString = false;
  let escaped = false;
  let expectingKey = false;
  let key: number[] | undefined;
  let lastKey = '';
  let valueNext = false;
  // Inside the top-level fileData string.
  let decoder: DataUrlDecoder | undefined;
  let decoded: ReceivedDataUrl | undefined;
  let twice = false;
  let fileEscape = false;
  let piece = '';

  const keep = (from: Buffer) => {
    if (from.length === 0) return;
    restLength += from.length;
    if (restLength > options.restLimit) throw new BodyTooLarge();
    rest.push(from);
  };

  for await (const chunk of chunks) {
    received += chunk.length;
    if (received > options.bodyLimit) throw new BodyTooLarge();
    let keptFrom = 0;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i] ?? 0;
      if (decoder !== undefined) {
        // The file's characters, up to its closing quote, escapes resolved.
        if (fileEscape) {
          fileEscape = false;
          if (byte === 0x2f) piece += '/';
          else if (byte === 0x6e || byte === 0x72 || byte === 0x74) piece += ' ';
          else decoder.fail('VALIDATION_FAILED');
          keptFrom = i + 1;
          continue;
        }
        if (byte === 0x5c) {
          piece += chunk.toString('latin1', keptFrom, i);
          fileEscape = true;
          keptFrom = i + 1;
          continue;
        }
        if (byte !== 0x22) {
          // On to the next quote or backslash: the characters between are judged as base64.
          const quote = chunk.indexOf(0x22, i);
          const backslash = chunk.indexOf(0x5c, i);
          const next = Math.min(
            quote === -1 ? chunk.length : quote,
            backslash === -1 ? chunk.length : backslash,
          );
          i = next - 1;
          continue;
        }
        // The closing quote: what came since the last push, then the file is whole.
        decoder.push(piece + chunk.toString('latin1', keptFrom, i));
        piece = '';
        if (decoded === undefined) decoded = decoder.end();
        else twice = true;
        decoder = undefined;
        keptFrom = i;
        continue;
      }
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === 0x5c) escaped = true;
        else if (byte === 0x22) {
          inString = false;
          if (key !== undefined) {
            lastKey = Buffer.from(key).toString('latin1');
            key = undefined;
          }
        } else if (key !== undefined) key.push(byte);
        continue;
      }
      if (byte === 0x22) {
        inString = true;
        if (depth === 1 && expectingKey) {
          key = [];
          expectingKey = false;
        } else if (depth === 1 && valueNext && lastKey === 'fileData') {
          // The value itself: the opening quote is kept, the content goes to the decoder.
          keep(chunk.subarray(keptFrom, i + 1));
          keptFrom = i + 1;
          inString = false;
          valueNext = false;
          decoder = new DataUrlDecoder(options.capacity);
        }
        valueNext = false;
        continue;
      }
      if (byte === 0x7b || byte === 0x5b) {
        depth += 1;
        expectingKey = depth === 1 && byte === 0x7b;
        valueNext = false;
      } else if (byte === 0x7d || byte === 0x5d) {
        depth -= 1;
        valueNext = false;
      } else if (depth === 1 && byte === 0x2c) {
        expectingKey = true;
        valueNext = false;
      } else if (depth === 1 && byte === 0x3a) {
        valueNext = true;
      } else if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) {
        valueNext = false;
      }
    }
    if (decoder !== undefined) {
      // The file goes on in the next chunk: its characters so far, decoded.
      decoder.push(piece + chunk.toString('latin1', keptFrom, chunk.length));
      piece = '';
    } else {
      keep(chunk.subarray(keptFrom));
    }
  }
  // A body cut off inside the file's string is no JSON: the rest will not parse.
  const file = twice ? new ReceivedDataUrl(Buffer.alloc(0), 'VALIDATION_FAILED') : decoded;
  return { rest: Buffer.concat(rest, restLength).toString('utf8'), file };
}
