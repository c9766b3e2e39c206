/** Bodies of the appeal calls: the customer's opening, the senior operator's decision. */
import * as v from 'valibot';
import { APPEAL_DECISIONS, APPEAL_REASONS } from '../appeals';
import { CHAT_TEXT_MAX_CHARS } from '../limits';
import { CompleteSchema } from './operator';
import { lineText, paragraph, paragraphText } from './text';

/** How many chat messages an appeal may point to as its evidence. */
export const APPEAL_EVIDENCE_MAX = 20;

/**
 * `POST /api/orders/{id}/appeal`: a reason from the catalogue, the customer's words, and the
 * order's chat messages with files given as evidence (a new file is sent to the chat first, as
 * any message, and named here by its id).
 */
export const OpenAppealSchema = v.object({
  reason: v.picklist(APPEAL_REASONS),
  text: v.optional(paragraphText(CHAT_TEXT_MAX_CHARS), ''),
  evidence: v.optional(
    v.pipe(
      v.array(v.pipe(v.number(), v.integer(), v.minValue(1))),
      v.maxLength(APPEAL_EVIDENCE_MAX),
    ),
    [],
  ),
});

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
