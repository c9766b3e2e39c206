/** An appeal as the console reads it: what the customer reads, and the words, the evidence, who decided. */
import type { OperatorAppealResponse } from '../../shared/operator-api';
import { toAppealView, type AppealRow } from '../orders';

/** What operators read besides: the customer's words, the evidence and who decided. */
export function toOperatorAppeal(row: AppealRow): NonNullable<OperatorAppealResponse['appeal']> {
  return {
    ...toAppealView(row),
    text: row.text,
    evidence: JSON.parse(row.evidence) as number[],
    decidedBy: row.decided_by,
  };
}
