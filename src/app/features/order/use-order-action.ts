/**
 * A customer's action on an order screen ('I have paid', 'I received', cancel, the transaction
 * hash, the receipt): busy while the call runs, and a failure told through the one client error
 * path, `failureText`, under the screen's own headline (never the server's text). The failure is
 * kept, not its text, so an inline message follows a language switch.
 */
import { useRef, useState } from 'react';
import type { TranslationFunctions } from '../../../../i18n/i18n-types';
import { failureText } from '../../components/failure-text';
import { useEnvironment } from '../../environment-context';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { hapticError, showAlert } from '../../telegram/actions';

/** The headlines an order screen's failure starts with. */
export type FailureHeadline = keyof Pick<
  TranslationFunctions['errors'],
  'generic' | 'uploadError' | 'errorCreatingOrder' | 'officeConfirmError'
>;

export interface OrderActionOptions<A extends unknown[], T> {
  /** Names the action in the log. */
  readonly name: string;
  readonly call: (...args: A) => Promise<T>;
  readonly onDone: (answer: T) => void;
  readonly headline: FailureHeadline;
  /** 'alert' (default) shows the failure in a popup; 'inline' gives it as `errorText`. */
  readonly show?: 'alert' | 'inline';
}

export interface OrderAction<A extends unknown[]> {
  readonly busy: boolean;
  /** The inline failure message, or null. */
  readonly errorText: string | null;
  /** Runs the call unless it is already running. */
  readonly run: (...args: A) => Promise<void>;
}

export function useOrderAction<A extends unknown[], T>(
  options: OrderActionOptions<A, T>,
): OrderAction<A> {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const { inTelegram } = useEnvironment();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  const running = useRef(false);

  const run = async (...args: A) => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    setFailure(null);
    let answer: T;
    try {
      answer = await options.call(...args);
    } catch (error) {
      console.warn(`${options.name} failed`, error);
      hapticError();
      running.current = false;
      if (options.show === 'inline') {
        setFailure({ error });
        setBusy(false);
      } else {
        await showAlert(
          failureText(error, LL, LL.errors[options.headline](), language),
          inTelegram,
        );
        setBusy(false);
      }
      return;
    }
    // Success leaves the screen: the action stays busy until it is gone.
    options.onDone(answer);
  };

  return {
    busy,
    errorText:
      failure === null
        ? null
        : failureText(failure.error, LL, LL.errors[options.headline](), language),
    run,
  };
}
