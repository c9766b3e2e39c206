/**
 * An operator's action on the order the console shows: asked first where money moves,
 * sent with the status the operator saw, and then the order is read again. Another operator who
 * acted first is told plainly, with the status the order has now, never acted on twice.
 */
import { useState } from 'react';
import type { OperatorOrderResponse } from '../../../shared/operator-api';
import type { OrderStatus } from '../../../shared/order-status';
import { STATUS_LABEL_KEYS } from '../../../shared/order-status';
import { ApiError } from '../../api/client';
import { operatorAction, type OperatorActionPath } from './console-api';
import { failureText } from '../../components/failure-text';
import { useEnvironment } from '../../environment-context';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { askConfirm, hapticError, hapticSuccess } from '../../telegram/actions';
import { clearDrafts } from './console-draft';
import { attachRefusalText } from './attach-refusal';

export interface ConsoleNotice {
  readonly kind: 'done' | 'stale' | 'error' | 'reopen';
  readonly text: string;
}

export interface ConsoleAction {
  /** The order it acts on (its forms keep their drafts under it). */
  readonly orderId: string;
  readonly busy: boolean;
  readonly notice: ConsoleNotice | null;
  /** Asks `confirm` first when given; resolves once the action settled. */
  readonly run: (action: OperatorActionPath, body: object, confirm?: string) => Promise<void>;
}

/** What the console's parts of an order are given: the order as the console reads it, and acting on it. */
export interface ConsoleOrderProps {
  readonly view: OperatorOrderResponse;
  readonly action: ConsoleAction;
}

export function useConsoleAction(
  orderId: string,
  seen: OrderStatus | undefined,
  reload: () => void,
): ConsoleAction {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const { inTelegram } = useEnvironment();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<ConsoleNotice | null>(null);
  const label = (status: OrderStatus) => LL.statusLabels[STATUS_LABEL_KEYS[status]]();

  const run = async (action: OperatorActionPath, body: object, confirm?: string) => {
    if (busy || seen === undefined) return;
    if (
      confirm !== undefined &&
      !(await askConfirm(confirm, { ok: LL.console.yes(), cancel: LL.console.no() }, inTelegram))
    ) {
      return;
    }
    setBusy(true);
    setNotice(null);
    try {
      const answer = await operatorAction(action, orderId, { ...body, expectedStatus: seen });
      hapticSuccess();
      clearDrafts(orderId);
      setNotice({ kind: 'done', text: LL.console.done({ status: label(answer.status) }) });
    } catch (error) {
      hapticError();
      const status = error instanceof ApiError ? error.body.status : undefined;
      const code = error instanceof ApiError ? error.code : undefined;
      if (code === 'INVALID_STATUS' && status !== undefined) {
        clearDrafts(orderId);
        setNotice({ kind: 'stale', text: LL.console.stale({ status: label(status) }) });
      } else if (code === 'OPERATOR_REOPEN') {
        // The form keeps what was typed (and its draft, for the reopened console).
        setNotice({ kind: 'reopen', text: LL.apiErrors.OPERATOR_REOPEN() });
      } else {
        const text =
          (action === 'attachDeposit' ? attachRefusalText(error, LL, language) : null) ??
          failureText(error, LL, LL.errors.generic(), language);
        setNotice({ kind: 'error', text });
      }
    } finally {
      setBusy(false);
      reload();
    }
  };

  return { orderId, busy, notice, run };
}
