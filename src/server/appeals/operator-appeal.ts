/** An appeal as the console reads it. */
import type { OperatorAppealResponse } from '../../shared/operator-api';
import { toAppealView, type AppealRow } from '../orders';

export function toOperatorAppeal(row: AppealRow): NonNullable<OperatorAppealResponse['appeal']> {
  return {
    ...toAppealView(row),
    text: row.text,
    evidence: JSON.parse(row.evidence) as number[],
    decidedBy: row.decided_by,
  };
}
