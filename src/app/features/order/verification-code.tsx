/**
 * The order's verification code as the customer reads it: every message of the exchange about
 * the order carries it, so a message without it (or with another) is not the exchange's.
 */
import { Cell } from '@telegram-apps/telegram-ui';
import { useI18nContext } from '../../i18n/language';

/** In running text (the chat's notice). */
export function VerificationCode({ code }: { readonly code: string }) {
  const { LL } = useI18nContext();
  return (
    <p className="verification-code">
      <span className="verification-code__label">{LL.chat.code()}</span>{' '}
      <strong className="verification-code__value" data-testid="verification-code">
        {code}
      </strong>
    </p>
  );
}

/** As a row of the order's details (the amounts' section of every order screen). */
export function VerificationCodeCell({ code }: { readonly code: string }) {
  const { LL } = useI18nContext();
  return (
    <Cell subhead={LL.chat.code()} data-testid="order-verification-code">
      <span className="verification-code__value">{code}</span>
    </Cell>
  );
}
