/**
 * A receipt upload's body, read as it arrives: the top-level fileData (13.3 MB of base64 for a
 * 10 MB file) is never made a string but decoded chunk by chunk into a file, so an upload holds a
 * chunk of memory, not its file (read whole, three uploads took the server past 300 MB). The rest
 * of the JSON is parsed as usual, fileData standing in it as a ReceivedDataUrl. JSON whitespace
 * escapes in the base64 are skipped, `\/` is a slash, any other escape is refused.
 */
import { RECEIPT_MAX_BYTES } from '../../shared/limits';

export type DataUrlProblem = 'VALIDATION_FAILED' | 'NO_FILE' | 'FILE_TOO_LARGE';

export interface WrittenFile {
  readonly path: string;
  readonly size: number;
  readonly sha256: string;
  readonly head: Uint8Array;
}

export interface ReceiptSink {
  write(bytes: Buffer): Promise<void>;
  /** Flushed to the disk for good, and described. */
  finish(): Promise<WrittenFile>;
  /** May be called more than once. */
  discard(): Promise<void>;
}

export class ReceivedDataUrl {
  constructor(
    readonly file: WrittenFile | undefined,
    readonly problem: DataUrlProblem | undefined,
    readonly discard: () => Promise<void> = () => Promise.resolve(),
  ) {}
}

const HEADER_MAX = 256;
const HEADER = /^data:[\w.+/-]*(;[\w=.+-]+)*;base64$/i;
const BASE64 = /^[A-Za-z0-9+/]*(=*)$/;
const WHITESPACE = /\s/g;

/** One data URL (or bare base64) given piece by piece, escapes already resolved. */
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

  end(): void {
    if (!this.#inData) this.#startData(0);
    if (this.#problem !== undefined) return;
    if (this.#characters === 0) this.fail('NO_FILE');
    else if (this.#characters % 4 === 1) this.fail('VALIDATION_FAILED');
    else this.#decode(this.#leftover);
  }

  take(): Buffer[] {
    const ready = this.#ready;
    this.#ready = [];
    return ready;
  }
}

export class BodyTooLarge extends Error {}

/** The JSON around the file, byte by byte; the file's own string never passes through it. */
class JsonOutline {
  #depth = 0;
  #inString = false;
  #escaped = false;
  #expectingKey = false;
  #key: number[] | undefined;
  #lastKey = '';
  #valueNext = false;

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

  #quote(): boolean {
    let opensFileData = false;
    this.#inString = true;
    if (this.#depth === 1 && this.#expectingKey) {
      this.#key = [];
      this.#expectingKey = false;
    } else if (this.#depth === 1 && this.#valueNext && this.#lastKey === 'fileData') {
      this.#inString = false;
      opensFileData = true;
    }
    this.#valueNext = false;
    return opensFileData;
  }
}

export interface ReceiptBody {
  readonly rest: string;
  readonly file: ReceivedDataUrl | undefined;
}

export interface ReceiptBodyOptions {
  readonly bodyLimit: number;
  readonly restLimit: number;
  readonly sink: () => ReceiptSink;
}

/** The first top-level fileData's bytes go to the sink; a second is refused. */
class ReceiptBodyReader {
  readonly #options: ReceiptBodyOptions;
  readonly #rest: Buffer[] = [];
  #restLength = 0;
  #received = 0;
  readonly #outline = new JsonOutline();
  #decoder: DataUrlDecoder | undefined;
  #fileEscape = false;
  #piece = '';
  #first: DataUrlDecoder | undefined;
  #sink: ReceiptSink | undefined;
  #fileStrings = 0;
  #keptFrom = 0;

  constructor(options: ReceiptBodyOptions) {
    this.#options = options;
  }

  /** The file's bytes decoded from it are written before it returns. */
  async read(chunk: Buffer): Promise<void> {
    this.#received += chunk.length;
    if (this.#received > this.#options.bodyLimit) throw new BodyTooLarge();
    this.#keptFrom = 0;
    for (let i = 0; i < chunk.length; i++) {
      if (this.#decoder !== undefined) i = this.#fileByte(chunk, i, this.#decoder);
      else if (this.#outline.read(chunk[i] ?? 0)) this.#openFile(chunk, i);
    }
    if (this.#decoder !== undefined) {
      this.#decoder.push(this.#piece + chunk.toString('latin1', this.#keptFrom, chunk.length));
      this.#piece = '';
      // A second fileData is refused: nothing of it is kept.
      if (this.#decoder !== this.#first) this.#decoder.take();
    } else {
      this.#keep(chunk.subarray(this.#keptFrom));
    }
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
      const quote = chunk.indexOf(0x22, i);
      const backslash = chunk.indexOf(0x5c, i);
      const next = Math.min(
        quote === -1 ? chunk.length : quote,
        backslash === -1 ? chunk.length : backslash,
      );
      return next - 1;
    }
    decoder.push(this.#piece + chunk.toString('latin1', this.#keptFrom, i));
    this.#piece = '';
    decoder.end();
    this.#decoder = undefined;
    this.#keptFrom = i;
    return i;
  }

  async discard(): Promise<void> {
    await this.#sink?.discard();
  }

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

/** `restLimit` bounds the rest; a refused file or a failed body leaves nothing behind. */
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
