/**
 * The order's chat one tap away, beside support on every order screen, with the count of the
 * exchange's messages the customer has not read (as the order screen's last status answer said,
 * or zero once the chat was read). The chat's back goes to the screen it was opened from.
 */
import { ScreenButton } from '../../components/screen-action-button';
import { useLocation } from 'wouter';
import { useChatUnread } from './use-chat-unread';
import { useI18nContext } from '../../i18n/language';
import { orderChatPath } from '../../order-side-paths';

/**
 * Where a side screen's back goes: the screen that opened it, else (opened by a link) the order's
 * own screen, which My orders picks by the history-card table.
 */
export function sideScreenBackPath(orderId: string): string {
  const state: unknown = window.history.state;
  if (typeof state === 'object' && state !== null && 'back' in state) {
    const { back } = state;
    if (typeof back === 'string' && back.startsWith('/')) return back;
  }
  return `/my-orders?orderId=${encodeURIComponent(orderId)}`;
}

/** Goes to an order's side screen (its chat, its appeal), whose back returns here. */
export function useOpenFromHere(): (path: string) => void {
  const [location, navigate] = useLocation();
  return (path) => navigate(path, { state: { back: location } });
}

/** A button of an order screen's help row that opens one of the order's side screens. */
export interface SideButtonProps {
  readonly orderId: string;
  readonly mode: 'plain' | 'bezeled';
}

export function OrderChatButton({ orderId, mode }: SideButtonProps) {
  const { LL } = useI18nContext();
  const open = useOpenFromHere();
  const unread = useChatUnread(orderId) ?? 0;
  return (
    <ScreenButton
      mode={mode}
      onClick={() => open(orderChatPath(orderId))}
      testId="order-chat"
      data-unread={unread}
    >
      {unread > 0 ? (
        // Seen: the word and its count; heard: the whole sentence, from its content (an
        // aria-label that does not hold the visible text is a mismatch to voice control).
        <>
          <span aria-hidden="true">{LL.chat.open()}</span>
          <span className="unread-badge" aria-hidden="true" data-testid="chat-unread">
            {unread}
          </span>
          <span className="visually-hidden">{LL.chat.openUnread({ count: unread })}</span>
        </>
      ) : (
        LL.chat.open()
      )}
    </ScreenButton>
  );
}
