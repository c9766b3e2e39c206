/**
 * The one hook behind every order screen: it asks for the order as the screen's row of
 * ORDER_SCREEN_TABLE says (at once or after a first delay, then every `pollMs`, or once), keeps
 * the offset of the server's clock for countdowns, says 'not found' for a missing or foreign id,
 * applies the screen's rules to every answer (alert, then go) and leaves only once, whether a
 * rule or the customer's action sends the screen away. The screens render what it gives.
 *
 * Polls are conditional: an order that has not changed since the last answer comes
 * back as `304 Not Modified` and the screen keeps that answer, its clock offset included (the
 * offset is measured when a 200 arrives; a kept `serverTime` is older than the 304).
 */
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { useLocation } from 'wouter';
import type { OrderDetails } from '../../../shared/api';
import {
  ORDER_SCREEN_TABLE,
  destinationPath,
  orderScreenRule,
  type OrderScreen,
  type OrderScreenDestination,
} from '../../../shared/order-screens';
import { ApiError } from '../../api/client';
import { endedAlertText } from '../../../shared/order-ended';
import { orderStatusPoller } from '../../api/orders';
import { useEnvironment } from '../../environment-context';
import { useI18nContext } from '../../i18n/language';
import { hapticSuccess, showAlert } from '../../telegram/actions';
import { noteUnread } from './use-chat-unread';
import { noteOrder } from './use-seen-order';
import { clockOffset } from '../../hooks/use-countdown';
import { useFetchState } from '../../hooks/use-fetch-state';

export interface LeaveOptions {
  /** Shown, and dismissed, before going. */
  readonly alert?: string | undefined;
  /** Run first (the cancel after a payment timer ran out); its failure is the caller's. */
  readonly before?: () => Promise<unknown>;
  /** Replace the current history entry (default true: the screen has moved on). */
  readonly replace?: boolean;
  /** Navigation state for the next screen. */
  readonly state?: unknown;
}

export interface OrderScreenView {
  readonly order: OrderDetails | undefined;
  readonly notFound: boolean;
  /** The call failed on a screen that asks only once (the customer was told). */
  readonly failed: boolean;
  /** Server clock minus phone clock, in ms. */
  readonly offsetMs: number;
  /**
   * Leaves the screen for `to`, unless it is already leaving: false then. Later answers no
   * longer redirect.
   */
  readonly leave: (to: OrderScreenDestination, options?: LeaveOptions) => boolean;
  /**
   * Runs a customer's call (cancel) with the table's rules paused, so that a poll which already
   * sees its outcome does not send the screen elsewhere before the call's own destination; a
   * failed call resumes them (and is rethrown). After success the caller leaves.
   */
  readonly holdRules: <T>(call: () => Promise<T>) => Promise<T>;
}

interface Answer {
  readonly order: OrderDetails;
  readonly offsetMs: number;
}

export function useOrderScreen(
  screen: OrderScreen,
  orderId: string,
  options: {
    /** Called once when a rule of the table sends the screen away (waiting clears its timer). */
    readonly onRuleLeave?: () => void;
  } = {},
): OrderScreenView {
  const { LL } = useI18nContext();
  const { inTelegram } = useEnvironment();
  const behaviour = ORDER_SCREEN_TABLE[screen];
  const leave = useLeaveOnce(orderId);
  const { held, holdRules } = useHeldRules();
  const answered = useRef(false);
  const celebrated = useRef(false);
  // Not found is final: the screen stops asking.
  const [notFound, setNotFound] = useState(false);
  const [pollOrder] = useState(() =>
    orderStatusPoller((order): Answer => ({ order, offsetMs: clockOffset(order.serverTime) })),
  );

  const onData = ({ order }: Answer) => {
    const first = !answered.current;
    answered.current = true;
    if (!celebrated.current && behaviour.successHaptic?.includes(order.status) === true) {
      celebrated.current = true;
      hapticSuccess();
    }
    if (held.current) return;
    const rule = orderScreenRule(screen, order, first);
    if (rule === undefined) return;
    const left = leave(rule.go, {
      alert:
        rule.alert === undefined
          ? undefined
          : rule.alert === 'ended'
            ? endedAlertText(order, LL)
            : LL.errors[rule.alert](),
      state: rule.passOrder === true ? { order } : undefined,
    });
    if (left) options.onRuleLeave?.();
  };

  const onError = (error: unknown) => {
    if (error instanceof ApiError && error.code === 'ORDER_NOT_FOUND') {
      setNotFound(true);
      return;
    }
    if (behaviour.onFailure === 'alert') void showAlert(LL.errors.generic(), inTelegram);
    else console.warn(`${screen}: order poll failed; retrying on the next poll`, error);
  };

  const fetched = useFetchState<Answer>(orderId, (signal) => pollOrder(orderId, signal), {
    intervalMs: behaviour.pollMs,
    ...(behaviour.firstPollMs === undefined ? {} : { firstDelayMs: behaviour.firstPollMs }),
    enabled: !notFound,
    onData,
    onError,
  });

  // The count beside the chat button, told once the answer is shown.
  const unread = fetched.data?.order.unreadMessages;
  useEffect(() => {
    if (unread !== undefined) noteUnread(orderId, unread);
  }, [orderId, unread]);
  // The appeal beside help reads the same answer.
  const seen = fetched.data?.order;
  useEffect(() => {
    if (seen !== undefined) noteOrder(seen);
  }, [seen]);

  return {
    order: fetched.data?.order,
    notFound,
    failed: !notFound && fetched.error !== undefined && fetched.data === undefined,
    offsetMs: fetched.data?.offsetMs ?? 0,
    leave,
    holdRules,
  };
}

/** The screen's one way out: the first call leaves (after its `before` and alert), later ones not. */
function useLeaveOnce(orderId: string): OrderScreenView['leave'] {
  const { inTelegram } = useEnvironment();
  const [, navigate] = useLocation();
  const leaving = useRef(false);
  return useCallback(
    (to: OrderScreenDestination, how: LeaveOptions = {}) => {
      if (leaving.current) return false;
      leaving.current = true;
      void (async () => {
        await how.before?.();
        if (how.alert !== undefined) await showAlert(how.alert, inTelegram);
        navigate(destinationPath(orderId, to), { replace: how.replace ?? true, state: how.state });
      })();
      return true;
    },
    [inTelegram, navigate, orderId],
  );
}

/** The pause of the table's rules while a customer's call runs (`holdRules`), and its flag. */
function useHeldRules(): {
  readonly held: RefObject<boolean>;
  readonly holdRules: OrderScreenView['holdRules'];
} {
  const held = useRef(false);
  const holdRules = useCallback(async <T>(call: () => Promise<T>): Promise<T> => {
    held.current = true;
    try {
      return await call();
    } catch (error) {
      held.current = false;
      throw error;
    }
  }, []);
  return { held, holdRules };
}
