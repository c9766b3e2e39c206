/**
 * The pieces every text field and id of a payload is built from, so that the form, the server
 * and the database agree on what text is. A control character (NUL above all: PostgreSQL cannot
 * store it) or a lone surrogate (it would be stored as U+FFFD, silently changing what was typed)
 * is refused, never stored; multi-line text keeps its line breaks and tabs.
 */
import * as v from 'valibot';
import type { FormErrorKey } from './form-errors';

/** Unicode control characters (C0, DEL, C1) and UTF-16 surrogates without their pair. */
const NOT_IN_A_LINE = /[\p{Cc}\p{Cs}]/u;
/** As NOT_IN_A_LINE, but tab, line feed and carriage return belong to a paragraph. */
const NOT_IN_A_PARAGRAPH = /(?![\t\n\r])[\p{Cc}\p{Cs}]/u;

const NOT_IN_A_LINE_ALL = new RegExp(NOT_IN_A_LINE.source, 'gu');

/**
 * `s` without its control characters and broken surrogates: for text that is not typed into our
 * forms and must not be refused for them (a Telegram name, a picked file's name).
 */
export function withoutControlCharacters(s: string): string {
  return s.replace(NOT_IN_A_LINE_ALL, '');
}

/** Whether `s` is one line of printable text (no control character, no broken surrogate). */
function isPrintableLine(s: string): boolean {
  return !NOT_IN_A_LINE.test(s);
}

/** Whether `s` is printable text that may span lines (tabs and line breaks allowed). */
function isPrintableText(s: string): boolean {
  return !NOT_IN_A_PARAGRAPH.test(s);
}

// The messages are keys of the dictionary's `errors` section, translated when shown.
const TOO_LONG: FormErrorKey = 'tooLong';
const NOT_PRINTABLE: FormErrorKey = 'notPrintable';
const FILL_ALL_FIELDS: FormErrorKey = 'fillAllFields';

/** A single-line text, trimmed, at most `max` characters; may be empty. */
export const lineText = (max: number) =>
  v.pipe(v.string(), v.trim(), v.maxLength(max, TOO_LONG), v.check(isPrintableLine, NOT_PRINTABLE));

/** Required: empty after trimming is 'Please fill in all fields'. */
export const required = <S extends v.GenericSchema<string, string>>(schema: S) =>
  v.pipe(schema, v.nonEmpty(FILL_ALL_FIELDS));

/** A required single-line text (a name, a bank), trimmed, at most `max` characters. */
export const line = (max: number) => required(lineText(max));

/** A text that may span lines (a comment), trimmed, at most `max` characters; may be empty. */
export const paragraphText = (max: number) =>
  v.pipe(v.string(), v.trim(), v.maxLength(max, TOO_LONG), v.check(isPrintableText, NOT_PRINTABLE));

/** A required text that may span lines (a reason, instructions), at most `max` characters. */
export const paragraph = (max: number) => required(paragraphText(max));

/** Order and receipt ids: UUIDs, the only ids the server hands out for them. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids of reference data (cities, offices): lower-case words joined by hyphens, `saint-petersburg`. */
const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** An order or receipt id. */
export const UuidSchema = v.pipe(v.string(), v.regex(UUID_PATTERN));

/** A city or office id. */
export const SlugSchema = v.pipe(v.string(), v.maxLength(64), v.regex(SLUG_PATTERN));
