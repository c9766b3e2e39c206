/**
 * Bodies of the appeal calls: the customer's opening, the senior operator's decision; and the
 * customer's appeal form, made of the same pieces so that the form and the server keep one rule.
 */
import * as v from 'valibot';
import { APPEAL_DECISIONS, APPEAL_REASONS } from '../appeals';
import { CHAT_TEXT_MAX_CHARS } from '../limits';
import type { AppealFormErrorKey } from './form-errors';
import { CompleteSchema } from './operator';
import { lineText, paragraph, paragraphText } from './text';

/** How many chat messages an appeal may point to as its evidence. */
export const APPEAL_EVIDENCE_MAX = 20;

// The messages are keys of the dictionary's `appeals` section, translated when shown.
const CHOOSE_REASON: AppealFormErrorKey = 'chooseReason';
const TOO_MANY_FILES: AppealFormErrorKey = 'tooManyFiles';

/** A reason from the catalogue: anything else, none chosen above all, is "choose a reason". */
const appealReason = v.picklist(APPEAL_REASONS, CHOOSE_REASON);

/** The customer's words: as long as a chat message may be. */
const appealText = paragraphText(CHAT_TEXT_MAX_CHARS);

/** A chat message of the order, named as evidence by its id. */
const evidenceMessage = v.pipe(v.number(), v.integer(), v.minValue(1));

/**
 * `POST /api/orders/{id}/appeal`: a reason from the catalogue, the customer's words, and the
 * order's chat messages with files given as evidence (a new file is sent to the chat first, as
 * any message, and named here by its id).
 */
export const OpenAppealSchema = v.object({
  reason: appealReason,
  text: v.optional(appealText, ''),
  evidence: v.optional(
    v.pipe(v.array(evidenceMessage), v.maxLength(APPEAL_EVIDENCE_MAX, TOO_MANY_FILES)),
    [],
  ),
});

/**
 * The customer's appeal form: no reason until one is chosen, their words, the chat's messages
 * ticked as evidence, and whether a new file goes too. The new file is not in the chat until the
 * form is sent, so it has no id yet; it takes one of the evidence's places all the same, and a
 * form naming more than APPEAL_EVIDENCE_MAX files is refused before anything is sent.
 */
export const AppealFormSchema = v.pipe(
  v.object({
    reason: v.pipe(v.nullable(appealReason), appealReason),
    text: appealText,
    ticked: v.array(evidenceMessage),
    newFile: v.boolean(),
  }),
  // Checked as soon as the files are valid, whatever the reason and the words hold; said under
  // the files.
  v.forward(
    v.partialCheck(
      [['ticked'], ['newFile']],
      (form) => form.ticked.length + (form.newFile ? 1 : 0) <= APPEAL_EVIDENCE_MAX,
      TOO_MANY_FILES,
    ),
    ['ticked'],
  ),
);

export type AppealFormValues = v.InferInput<typeof AppealFormSchema>;
export type AppealFormOutput = v.InferOutput<typeof AppealFormSchema>;

/**
 * The opening's body from a checked form: the new file, once it is in the order's chat, is named
 * by its message id after the ticked ones (null when no new file goes).
 */
export function openAppealBody(
  form: AppealFormOutput,
  newFileId: number | null,
): v.InferOutput<typeof OpenAppealSchema> {
  return {
    reason: form.reason,
    text: form.text,
    evidence: newFileId === null ? form.ticked : [...form.ticked, newFileId],
  };
}

/**
 * `POST /api/operator/orders/{id}/appeal/decision`: the senior operator's decision and the
 * outcome text the customer reads with it. Completing a buy takes its payout hash as a
 * completion does (with an override's reason); a buy's refund takes the requisites or reference
 * it went to, a sell's the hash of the transfer back (checked on the chain).
 */
export const AppealDecisionSchema = v.object({
  ...CompleteSchema.entries,
  decision: v.picklist(APPEAL_DECISIONS),
  outcome: paragraph(1_000),
  refundDetails: v.optional(lineText(500)),
  refundTxHash: v.optional(lineText(100)),
});
