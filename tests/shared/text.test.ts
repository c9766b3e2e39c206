import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  line,
  paragraph,
  SlugSchema,
  UuidSchema,
  withoutControlCharacters,
} from '../../src/shared/schemas/text';

const ok = (schema: v.GenericSchema, input: unknown) => v.safeParse(schema, input).success;

describe('text pieces of every payload schema', () => {
  it.each([
    ['NUL', 'Т-Банк\u0000'],
    ['a bell', 'Sber\u0007'],
    ['DEL', 'Sber\u007f'],
    ['a C1 control', 'Sber\u0085'],
    ['a tab', 'Sber\tbank'],
    ['a line break', 'Sber\nbank'],
    ['a lone high surrogate', 'Sber\ud800'],
    ['a lone low surrogate', '\udc00Sber'],
  ])('a single line refuses %s', (_what, input) => {
    expect(ok(line(64), input)).toBe(false);
  });

  it('a single line takes any printable text: Cyrillic, emoji, quotes', () => {
    expect(ok(line(64), 'ООО «Северный обмен» 💱')).toBe(true);
  });

  it('a paragraph keeps tabs and line breaks but refuses NUL and other controls', () => {
    expect(ok(paragraph(500), 'Первая строка\r\n\tвторая')).toBe(true);
    expect(ok(paragraph(500), 'reason\u0000')).toBe(false);
    expect(ok(paragraph(500), 'rea\u000bson')).toBe(false);
  });

  it('ids are matched by their pattern: a NUL or a path never reaches the database', () => {
    expect(ok(UuidSchema, '3f1c2a4e-8b7d-4c55-9a1e-0d2f6b7c8e90')).toBe(true);
    expect(ok(UuidSchema, '3f1c2a4e-8b7d-4c55-9a1e-0d2f6b7c8e9\u0000')).toBe(false);
    expect(ok(SlugSchema, 'saint-petersburg')).toBe(true);
    for (const bad of ['moscow\u0000', 'Moscow', '../moscow', 'moscow-', '', 'a'.repeat(65)]) {
      expect(ok(SlugSchema, bad), bad).toBe(false);
    }
  });

  it('cleans text that is not ours to refuse (a Telegram name) down to its printable part', () => {
    expect(withoutControlCharacters('Ni\u0000na\u0007\ud800 😀')).toBe('Nina 😀');
  });
});
