/**
 * `/order/{orderId}/chat`: the order's chat with the exchange. On top, the order's verification
 * code and how to know the exchange (it writes only here and in the bot, every message of it
 * carries the code, and it never asks to pay outside the order's own requisites and amount);
 * under it the conversation. Reading the chat marks the exchange's messages read, so the count
 * beside the chat button goes to zero.
 */
import { useCallback } from 'react';
import { orderNumber } from '../../../shared/support-link';
import { ChatThread } from '../../components/chat/chat-thread';
import { OrderNotFoundScreen } from '../../features/order/order-not-found';
import { Screen } from '../../components/screen';
import { VerificationCode } from '../../features/order/verification-code';
import { noteUnread } from '../../features/order/use-chat-unread';
import { useOrderChat } from '../../hooks/use-order-chat';
import { useI18nContext } from '../../i18n/language';
import { sideScreenBackPath } from '../../features/order/order-chat-button';

/** As often as the order screens that wait for the exchange ask for their order. */
const CHAT_POLL_MS = 3_000;

export function OrderChatScreen({ orderId }: { readonly orderId: string }) {
  const { LL } = useI18nContext();
  const onRead = useCallback(() => noteUnread(orderId, 0), [orderId]);
  const chat = useOrderChat('customer', orderId, { pollMs: CHAT_POLL_MS, onRead });
  const back = sideScreenBackPath(orderId);
  if (chat.notFound) return <OrderNotFoundScreen testId="chat" orderId={orderId} back={back} />;
  return (
    <Screen testId="chat" header={{ title: LL.chat.title({ id: orderNumber(orderId) }), back }}>
      <div className="warning-box chat-notice" data-testid="chat-notice">
        <p className="warning-box__heading">{LL.chat.noticeTitle()}</p>
        {chat.verificationCode !== undefined && <VerificationCode code={chat.verificationCode} />}
        <p className="warning-box__text">{LL.chat.notice()}</p>
      </div>
      <ChatThread
        side="customer"
        orderId={orderId}
        chat={chat}
        authorLabel={(message) =>
          message.author === 'customer' ? LL.chat.you() : LL.chat.exchange()
        }
        emptyText={LL.chat.empty()}
        followNewest
      />
    </Screen>
  );
}
