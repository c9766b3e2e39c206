/**
 * A request's logger, made when the request first logs: pino builds a child's bindings at once, a
 * tenth of a status poll's time, though a poll writes no line at `info`. The child made later
 * has the same bindings and options, so a line reads the same.
 */
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];
type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

class RequestLogger implements FastifyBaseLogger {
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildOptions;
  #made: FastifyBaseLogger | undefined;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  /** The child Fastify would have made, made now. */
  #child(): FastifyBaseLogger {
    this.#made ??= this.#parent.child(this.#bindings, this.#options);
    return this.#made;
  }

  #write(level: Level, args: unknown[]): void {
    const child = this.#child();
    child[level](...(args as Parameters<FastifyBaseLogger[Level]>));
  }

  get level(): string {
    return (this.#made ?? this.#parent).level;
  }

  set level(level: string) {
    this.#child().level = level;
  }

  // On the prototype, not one closure each per request; they take pino's overloads as they came.
  fatal(...args: unknown[]): void {
    this.#write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#write('error', args);
  }
  warn(...args: unknown[]): void {
    this.#write('warn', args);
  }
  info(...args: unknown[]): void {
    this.#write('info', args);
  }
  debug(...args: unknown[]): void {
    this.#write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.#child().child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: each request's logger, made on its first line. */
export const requestLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  bindings,
  options,
) => new RequestLogger(logger, bindings, options);
