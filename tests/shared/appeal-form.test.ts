/**
 * The appeal form's schema and the opening's body made from it: the form keeps the rules the
 * server's OpenAppealSchema keeps (a reason from the catalogue, the chat's text rules, at most
 * APPEAL_EVIDENCE_MAX files), counts a new file among the files before it has an id, and says
 * each refusal as a key the app translates.
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { CHAT_TEXT_MAX_CHARS } from '../../src/shared/limits';
import {
  APPEAL_EVIDENCE_MAX,
  AppealFormSchema,
  OpenAppealSchema,
  openAppealBody,
  type AppealFormValues,
} from '../../src/shared/schemas/appeals';

const EMPTY: AppealFormValues = { reason: 'other', text: '', ticked: [], newFile: false };
const ids = (count: number) => Array.from({ length: count }, (_, i) => i + 1);

/** The refusals of `values` as path → message key. */
function refusals(values: AppealFormValues): Record<string, string> {
  const result = v.safeParse(AppealFormSchema, values);
  if (result.success) return {};
  return Object.fromEntries(
    result.issues.map((one): [string, string] => [v.getDotPath(one) ?? '', one.message]),
  );
}

describe('the appeal form’s schema', () => {
  it('no reason chosen is "chooseReason"', () => {
    expect(refusals({ ...EMPTY, reason: null })).toEqual({ reason: 'chooseReason' });
  });

  it(`${APPEAL_EVIDENCE_MAX} ticked files pass; a new one beyond them is "tooManyFiles", said under the ticked ones, with or without a reason`, () => {
    const ticked = ids(APPEAL_EVIDENCE_MAX);
    expect(refusals({ ...EMPTY, ticked })).toEqual({});
    expect(refusals({ ...EMPTY, ticked, newFile: true })).toEqual({ ticked: 'tooManyFiles' });
    expect(refusals({ ...EMPTY, reason: null, ticked, newFile: true })).toEqual({
      reason: 'chooseReason',
      ticked: 'tooManyFiles',
    });
  });

  it('the words follow the chat’s text rules: at most CHAT_TEXT_MAX_CHARS, printable', () => {
    expect(refusals({ ...EMPTY, text: 'x'.repeat(CHAT_TEXT_MAX_CHARS) })).toEqual({});
    expect(refusals({ ...EMPTY, text: 'x'.repeat(CHAT_TEXT_MAX_CHARS + 1) })).toEqual({
      text: 'tooLong',
    });
    expect(refusals({ ...EMPTY, text: 'paid\u0000' })).toEqual({ text: 'notPrintable' });
  });
});

describe('the opening’s body from the form', () => {
  it('names the new file by its chat message id after the ticked ones; the server takes it', () => {
    const form = v.parse(AppealFormSchema, {
      reason: 'rejected_wrongly',
      text: ' I paid in time ',
      ticked: [3, 5],
      newFile: true,
    });
    const body = openAppealBody(form, 9);
    expect(body).toEqual({
      reason: 'rejected_wrongly',
      text: 'I paid in time',
      evidence: [3, 5, 9],
    });
    expect(v.parse(OpenAppealSchema, body)).toEqual(body);
    expect(openAppealBody({ ...form, newFile: false }, null).evidence).toEqual([3, 5]);
  });

  it(`the server refuses more than ${APPEAL_EVIDENCE_MAX} files, as the form does`, () => {
    const evidence = ids(APPEAL_EVIDENCE_MAX + 1);
    expect(v.safeParse(OpenAppealSchema, { reason: 'other', evidence }).success).toBe(false);
    expect(
      v.safeParse(OpenAppealSchema, { reason: 'other', evidence: ids(APPEAL_EVIDENCE_MAX) })
        .success,
    ).toBe(true);
  });
});
