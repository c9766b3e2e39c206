/**
 * A receipt upload's body, read as it arrives. The body of
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
 * The JSON around the file, followed byte by byte: the depth, inside a string or not, a key being
 * read at depth 1 and whether a value comes next. The file's own string never passes through it.
 */
class JsonOutline {
  #depth = 0;
  #inString = false;
  #escaped = false;
  #expectingKey = false;
  #key: number[] | undefined;
  #lastKey = '';
  #valueNext = false;

  /** Takes one byte; true when it is the opening quote of the top-level fileData value. */
  read(byte: number): boolean {
    if (this.#inString) {
      this.#inStringByte(byte);
      return false;
    }
    if (byte === 0x22) return this.#quote();
    if (byte === 0x7b || byte === 0x5b) {
      this.#depth += 1;
      this.#expectingKey = this.#depth === 1 && byte === 0x7b;
      this.#valueNext = false;
    } else if (byte === 0x7d || byte === 0x5d) {
      this.#depth -= 1;
      this.#valueNext = false;
    } else if (this.#depth === 1 && byte === 0x2c) {
      this.#expectingKey = true;
      this.#valueNext = false;
    } else if (this.#depth === 1 && byte === 0x3a) {
      this.#valueNext = true;
    } else if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) {
      this.#valueNext = false;
    }
    return false;
  }

  #inStringByte(byte: number): void {
    if (this.#escaped) this.#escaped = false;
    else if (byte === 0x5c) this.#escaped = true;
    else if (byte === 0x22) {
      this.#inString = false;
      if (this.#key !== undefined) {
        this.#lastKey = Buffer.from(this.#key).toString('latin1');
        this.#key = undefined;
      }
    } else if (this.#key !== undefined) this.#key.push(byte);
  }

  /** A string opens: a key at depth 1, the fileData value, or any other string. */
  #quote(): boolean {
    let opensFileData = false;
    this.#inString = true;
    if (this.#depth === 1 && this.#expectingKey) {
      this.#key = [];
      this.#expectingKey = false;
    } else if (this.#depth === 1 && this.#valueNext && this.#lastKey === 'fileData') {
      // The value itself: its content goes to the decoder, not through here.
      this.#inString = false;
      opensFileData = true;
    }
    this.#valueNext = false;
    return opensFileData;
  }
}

/** A receipt body as read: the JSON text around the file, and the file if there was a fileData. */
export interface ReceiptBody {
  readonly rest: string;
  readonly file: ReceivedDataUrl | undefined;
}

export interface ReceiptBodyOptions {
  readonly bodyLimit: number;
  readonly restLimit: number;
  readonly sink: () => ReceiptSink;
}

/**
 * One receipt body as its chunks arrive: the JSON around the file is kept, the content of a
 * top-level fileData string goes to a decoder; the first one's bytes to the sink, a second is
 * refused.
 */
class ReceiptBodyReader {
  readonly #options: ReceiptBodyOptions;
  readonly #rest: Buffer[] = [];
  #restLength = 0;
  #received = 0;
  readonly #outline = new JsonOutline();
  // Inside a top-level fileData string: its decoder, a backslash just read, the characters
  // since the last push with their escapes resolved.
  #decoder: DataUrlDecoder | undefined;
  #fileEscape = false;
  #piece = '';
  #first: DataUrlDecoder | undefined;
  #sink: ReceiptSink | undefined;
  #fileStrings = 0;
  /** Where in the current chunk the bytes not yet kept, or not yet given to the decoder, start. */
  #keptFrom = 0;

  constructor(options: ReceiptBodyOptions) {
    this.#options = options;
  }

  /** Reads one chunk; the file's bytes decoded from it are written before it returns. */
  async read(chunk: Buffer): Promise<void> {
    this.#received += chunk.length;
    if (this.#received > this.#options.bodyLimit) throw new BodyTooLarge();
    this.#keptFrom = 0;
    for (let i = 0; i < chunk.length; i++) {
      if (this.#decoder !== undefined) i = this.#fileByte(chunk, i, this.#decoder);
      else if (this.#outline.read(chunk[i] ?? 0)) this.#openFile(chunk, i);
    }
    if (this.#decoder !== undefined) {
      // The file goes on in the next chunk: its characters so far, decoded.
      this.#decoder.push(this.#piece + chunk.toString('latin1', this.#keptFrom, chunk.length));
      this.#piece = '';
      // A second fileData is refused: nothing of it is kept.
      if (this.#decoder !== this.#first) this.#decoder.take();
    } else {
      this.#keep(chunk.subarray(this.#keptFrom));
    }
    // The file's bytes decoded from this chunk, written before the next chunk is read.
    if (this.#sink !== undefined && this.#first !== undefined) {
      for (const bytes of this.#first.take()) await this.#sink.write(bytes);
    }
  }

  #keep(from: Buffer): void {
    if (from.length === 0) return;
    this.#restLength += from.length;
    if (this.#restLength > this.#options.restLimit) throw new BodyTooLarge();
    this.#rest.push(from);
  }

  /** The fileData value's opening quote at `i`: it is kept, its content goes to a decoder. */
  #openFile(chunk: Buffer, i: number): void {
    this.#keep(chunk.subarray(this.#keptFrom, i + 1));
    this.#keptFrom = i + 1;
    this.#decoder = new DataUrlDecoder();
    this.#fileStrings += 1;
    if (this.#first === undefined) {
      this.#first = this.#decoder;
      this.#sink = this.#options.sink();
    }
  }

  /**
   * The file's characters, up to its closing quote, escapes resolved: reads at `i` and returns
   * the index it has read to.
   */
  #fileByte(chunk: Buffer, i: number, decoder: DataUrlDecoder): number {
    const byte = chunk[i] ?? 0;
    if (this.#fileEscape) {
      this.#fileEscape = false;
      if (byte === 0x2f) this.#piece += '/';
      else if (byte === 0x6e || byte === 0x72 || byte === 0x74) this.#piece += ' ';
      else decoder.fail('VALIDATION_FAILED');
      this.#keptFrom = i + 1;
      return i;
    }
    if (byte === 0x5c) {
      this.#piece += chunk.toString('latin1', this.#keptFrom, i);
      this.#fileEscape = true;
      this.#keptFrom = i + 1;
      return i;
    }
    if (byte !== 0x22) {
      // On to the next quote or backslash: the characters between are judged as base64.
      const quote = chunk.indexOf(0x22, i);
      const backslash = chunk.indexOf(0x5c, i);
      const next = Math.min(
        quote === -1 ? chunk.length : quote,
        backslash === -1 ? chunk.length : backslash,
      );
      return next - 1;
    }
    // The closing quote: what came since the last push, then the file is whole.
    decoder.push(this.#piece + chunk.toString('latin1', this.#keptFrom, i));
    this.#piece = '';
    decoder.end();
    this.#decoder = undefined;
    this.#keptFrom = i;
    return i;
  }

  /** The body failed: nothing of the file is left behind. */
  async discard(): Promise<void> {
    await this.#sink?.discard();
  }

  /** The body is over: the rest as text, and the file, finished or refused. */
  async result(): Promise<ReceiptBody> {
    const text = Buffer.concat(this.#rest, this.#restLength).toString('utf8');
    const first = this.#first;
    const sink = this.#sink;
    if (first === undefined || sink === undefined) return { rest: text, file: undefined };
    // A body cut off inside the file's string is no JSON: the rest will not parse.
    const problem = this.#fileStrings > 1 ? 'VALIDATION_FAILED' : first.problem;
    if (problem !== undefined || this.#decoder === first) {
      await sink.discard();
      return { rest: text, file: new ReceivedDataUrl(undefined, problem ?? 'VALIDATION_FAILED') };
    }
    return {
      rest: text,
      file: new ReceivedDataUrl(await sink.finish(), undefined, () => sink.discard()),
    };
  }
}

/**
 * Reads a receipt upload's body from `chunks`: the JSON text with its top-level fileData string
 * replaced by `""`, and that string decoded into the ReceiptSink that `sink` gives, each chunk's
 * bytes written before the next chunk is read. `restLimit` bounds what is kept of the rest. A
 * file that is refused, or a body that fails, leaves nothing written behind.
 */
export async function readReceiptBody(
  chunks: AsyncIterable<Buffer>,
  options: ReceiptBodyOptions,
): Promise<ReceiptBody> {
  const reader = new ReceiptBodyReader(options);
  try {
    for await (const chunk of chunks) await reader.read(chunk);
  } catch (error) {
    await reader.discard();
    throw error;
  }
  return reader.result();
}
