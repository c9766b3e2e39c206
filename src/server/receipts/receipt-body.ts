/**
 * A receipt upload's body, read as it arrives (issue 22, item 5). The body of
 * `POST /api/orders/{id}/receipt` is JSON, `{ "fileName": …, "fileData": "data:<type>;base64,<data>",
 * "fileSize": … }`, and its fileData holds a 10 MB file as 13.3 MB of base64. Read as one string,
 * parsed and decoded, an upload held over 50 MB of strings, and three at once took the server
 * past 300 MB. Here the top-level fileData string is never made a string: its base64 is decoded
 * chunk by chunk, as the bytes come in, and each piece is written to a file (a ReceiptSink,
 * receipts.ts) before the next chunk is read, so an upload holds a chunk of memory, not its file.
 * The rest of the JSON (a few hundred bytes) is parsed as usual, fileData standing in it as a
 * ReceivedDataUrl.
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

/** A file written whole by a ReceiptSink. */
export interface WrittenFile {
  /** Where it is, under a temporary name. */
  readonly path: string;
  readonly size: number;
  readonly sha256: string;
  /** Its first bytes, which tell its type. */
  readonly head: Uint8Array;
}

/** Where a receipt's bytes go as they are decoded (receipts.ts, `PartialReceiptFile`). */
export interface ReceiptSink {
  write(bytes: Buffer): Promise<void>;
  /** Everything is written: flushed to the disk for good, and described. */
  finish(): Promise<WrittenFile>;
  /** Removes what was written, if it is still there; may be called more than once. */
  discard(): Promise<void>;
}

/** The fileData of a receipt upload, decoded and written: the file, or why there is none. */
export class ReceivedDataUrl {
  constructor(
    readonly file: WrittenFile | undefined,
    readonly problem: DataUrlProblem | undefined,
    readonly discard: () => Promise<void> = () => Promise.resolve(),
  ) {}
}

/** The most a header (`data:image/png;base64`) may take before its comma. */
const HEADER_MAX = 256;
const HEADER = /^data:[\w.+/-]*(;[\w=.+-]+)*;base64$/i;
const BASE64 = /^[A-Za-z0-9+/]*(=*)$/;
const WHITESPACE = /\s/g;

/**
 * Decodes one data URL (or bare base64) given piece by piece, as the characters of a JSON
 * string's content with its escapes already resolved; the bytes decoded so far are taken with
 * `take`.
 */
class DataUrlDecoder {
  #head = '';
  #inData = false;
  #leftover = '';
  #characters = 0;
  #padding = 0;
  #decoded = 0;
  #ready: Buffer[] = [];
  #problem: DataUrlProblem | undefined;

  get problem(): DataUrlProblem | undefined {
    return this.#problem;
  }

  fail(problem: DataUrlProblem): void {
    this.#problem ??= problem;
    this.#ready = [];
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
      if (HEADER.test(this.#head.slice(0, comma))) this.#startData(comma + 1);
      else this.fail('VALIDATION_FAILED');
    } else if (this.#head.length > HEADER_MAX) {
      // No header: bare base64, as the app never sends but the API takes.
      this.#startData(0);
    }
  }

  /** What was gathered as a header is data from `from` on. */
  #startData(from: number): void {
    const data = this.#head.slice(from);
    this.#inData = true;
    this.#head = '';
    this.#data(data);
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
    this.#decode(pending.slice(0, whole));
    this.#leftover = pending.slice(whole);
  }

  #decode(base64: string): void {
    if (base64 === '' || this.#problem !== undefined) return;
    const bytes = Buffer.from(base64, 'base64');
    this.#decoded += bytes.length;
    if (this.#decoded > RECEIPT_MAX_BYTES) this.fail('FILE_TOO_LARGE');
    else this.#ready.push(bytes);
  }

  /** The string is over: what was left is decoded, and the problem judged. */
  end(): void {
    if (!this.#inData) this.#startData(0);
    if (this.#problem !== undefined) return;
    if (this.#characters === 0) this.fail('NO_FILE');
    else if (this.#characters % 4 === 1) this.fail('VALIDATION_FAILED');
    else this.#decode(this.#leftover);
  }

  /** The bytes decoded since the last take. */
  take(): Buffer[] {
    const ready = this.#ready;
    this.#ready = [];
    return ready;
  }
}

/** The body was more than it may be. */
export class BodyTooLarge extends Error {}

/**
 * Reads a receipt upload's body from `chunks`: the JSON text with its top-level fileData string
 * replaced by `""`, and that string decoded into the ReceiptSink that `sink` gives, each chunk's
 * bytes written before the next chunk is read. `restLimit` bounds what is kept of the rest. A
 * file that is refused, or a body that fails, leaves nothing written behind.
 */
export async function readReceiptBody(
  chunks: AsyncIterable<Buffer>,
  options: {
    readonly bodyLimit: number;
    readonly restLimit: number;
    readonly sink: () => ReceiptSink;
  },
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
  // Inside a top-level fileData string; the first one's bytes go to `sink`, a second is refused.
  let decoder: DataUrlDecoder | undefined;
  let first: DataUrlDecoder | undefined;
  let sink: ReceiptSink | undefined;
  let fileStrings = 0;
  let fileEscape = false;
  let piece = '';

  const keep = (from: Buffer) => {
    if (from.length === 0) return;
    restLength += from.length;
    if (restLength > options.restLimit) throw new BodyTooLarge();
    rest.push(from);
  };

  try {
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
        decoder.end();
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
          decoder = new DataUrlDecoder();
          fileStrings += 1;
          if (first === undefined) {
            first = decoder;
            sink = options.sink();
          }
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
      // A second fileData is refused: nothing of it is kept.
      if (decoder !== first) decoder.take();
    } else {
      keep(chunk.subarray(keptFrom));
    }
    // The file's bytes decoded from this chunk, written before the next chunk is read.
    if (sink !== undefined && first !== undefined) {
      for (const bytes of first.take()) await sink.write(bytes);
    }
  }
  } catch (error) {
    await sink?.discard();
    throw error;
  }
  const text = Buffer.concat(rest, restLength).toString('utf8');
  if (first === undefined || sink === undefined) return { rest: text, file: undefined };
  // A body cut off inside the file's string is no JSON: the rest will not parse.
  const problem = fileStrings > 1 ? 'VALIDATION_FAILED' : first.problem;
  if (problem !== undefined || decoder === first) {
    await sink.discard();
    return { rest: text, file: new ReceivedDataUrl(undefined, problem ?? 'VALIDATION_FAILED') };
  }
  const written = sink;
  return {
    rest: text,
    file: new ReceivedDataUrl(await written.finish(), undefined, () => written.discard()),
  };
}
