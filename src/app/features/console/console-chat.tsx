/**
 * The order's chat in the console, under or beside the whole order: the customer's messages and
 * the operators' (each named as the audit trail names them), read through the operator's calls
 * (reading marks the customer's messages read) and answered from the same field, attach and send
 * as the customer's.
 */
import { Section } from '@telegram-apps/telegram-ui';
import type { TranslationFunctions } from '../../../../i18n/i18n-types';
import { AUTOPILOT_OPERATOR_ID } from '../../../shared/operator-api';
import type { Actor } from '../../../shared/order-status';
import { useOrderChat } from '../../hooks/use-order-chat';
import { useI18nContext } from '../../i18n/language';
import { ChatThread } from '../../components/chat/chat-thread';

/** As often as the console asks for the open order. */
const CONSOLE_CHAT_POLL_MS = 5_000;

/** Who did something on an order (an event of the audit trail, a chat message), as operators say it. */
export function actorName(
  who: {
    readonly actor: Actor;
    readonly actorId: number | null;
  },
  LL: TranslationFunctions,
): string {
  if (who.actor !== 'operator') return LL.console.actors[who.actor]();
  return who.actorId === AUTOPILOT_OPERATOR_ID
    ? LL.console.actors.autopilot()
    : LL.console.actors.operator({ id: who.actorId ?? 0 });
}

export function ConsoleChat({ orderId }: { readonly orderId: string }) {
  const { LL } = useI18nContext();
  const chat = useOrderChat('operator', orderId, { pollMs: CONSOLE_CHAT_POLL_MS });
  return (
    <Section header={LL.console.chat()} data-testid="console-chat">
      <ChatThread
        side="operator"
        orderId={orderId}
        chat={chat}
        authorLabel={(message) =>
          actorName({ actor: message.author, actorId: message.authorId }, LL)
        }
        emptyText={LL.console.chatEmpty()}
      />
    </Section>
  );
}
