/**
 * The order's appeal as the console reads it: its reason, the customer's words, the chat's files
 * given as evidence and its age; once decided, the decision, the outcome text and who decided it
 * when. Only a senior operator decides: anyone else reads that a senior operator does.
 */
import { Cell, Section } from '@telegram-apps/telegram-ui';
import type { OperatorAppealResponse } from '../../../shared/operator-api';
import { formatDuration } from '../../hooks/use-countdown';
import { useDateTime } from '../../hooks/use-date-time';
import { useOrderChat } from '../../hooks/use-order-chat';
import { useI18nContext } from '../../i18n/language';
import { ChatAttachment } from '../../components/chat/chat-thread';
import { actorName } from './console-chat';

/** The chat is read for the evidence's files only: ConsoleChat beside keeps it fresh. */
const EVIDENCE_POLL_MS = 30_000;

type Appeal = NonNullable<OperatorAppealResponse['appeal']>;

function Evidence({ orderId, appeal }: { readonly orderId: string; readonly appeal: Appeal }) {
  const { LL } = useI18nContext();
  const chat = useOrderChat('operator', orderId, { pollMs: EVIDENCE_POLL_MS });
  if (appeal.evidence.length === 0) {
    return <Cell subhead={LL.console.appealEvidence()}>{LL.console.appealNoEvidence()}</Cell>;
  }
  return (
    <Cell subhead={LL.console.appealEvidence()} multiline data-testid="console-appeal-evidence">
      <span className="console-appeal__files">
        {appeal.evidence.map((id) => {
          const attachment = chat.messages?.find((message) => message.id === id)?.attachment;
          return attachment === undefined || attachment === null ? null : (
            <ChatAttachment
              key={id}
              side="operator"
              orderId={orderId}
              messageId={id}
              fileName={attachment.fileName}
              mimeType={attachment.mimeType}
            />
          );
        })}
      </span>
    </Cell>
  );
}

export function ConsoleAppeal({
  orderId,
  answer,
  now,
}: {
  readonly orderId: string;
  readonly answer: OperatorAppealResponse;
  readonly now: number;
}) {
  const { LL } = useI18nContext();
  const date = useDateTime();
  const { appeal } = answer;
  if (appeal === null) return null;
  return (
    <Section
      header={LL.console.appeal({ reason: LL.appeals.reasons[appeal.reason]() })}
      data-testid="console-appeal"
      data-state={appeal.state}
    >
      <Cell
        subhead={LL.console.appealOpenedAt({ time: date(appeal.openedAt) })}
        data-testid="console-appeal-age"
      >
        {LL.console.appealAge({
          time: formatDuration(Math.max(0, now - Date.parse(appeal.openedAt)), true),
        })}
      </Cell>
      {appeal.text !== '' && (
        <Cell subhead={LL.console.appealText()} multiline data-testid="console-appeal-text">
          <span className="console-message-text">{appeal.text}</span>
        </Cell>
      )}
      <Evidence orderId={orderId} appeal={appeal} />
      {appeal.state === 'open' && !answer.senior && (
        <Cell multiline data-testid="console-appeal-senior">
          {LL.console.appealSeniorDecides()}
        </Cell>
      )}
      {appeal.decision !== null && appeal.decidedAt !== null && (
        <Cell
          multiline
          data-testid="console-appeal-decided"
          data-decision={appeal.decision}
          subhead={LL.console.appealDecided({
            decision: LL.console.appealDecisions[appeal.decision](),
            who:
              appeal.decidedBy === null
                ? ''
                : actorName({ actor: 'operator', actorId: appeal.decidedBy }, LL),
            date: date(appeal.decidedAt),
          })}
        >
          <span className="console-message-text">{appeal.outcome ?? ''}</span>
        </Cell>
      )}
      {appeal.refundDetails !== null && (
        <Cell subhead={LL.console.appealRefundTo()} multiline>
          {appeal.refundDetails}
        </Cell>
      )}
    </Section>
  );
}
