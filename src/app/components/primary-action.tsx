/**
 * The primary action of a screen ("Native feel": Continue, I have paid, Send, I
 * received). Inside Telegram it is Telegram's main button, shown with the action's text, loader
 * and enabled state while the screen shows it, and hidden when the screen goes; in a plain browser
 * it is the same action as an in-page button. `submit` makes the in-page button its form's
 * submit button (Enter in a field submits too); the main button calls `onClick`.
 */
import { mainButton } from '@telegram-apps/sdk-react';
import { Button } from '@telegram-apps/telegram-ui';
import { useEffect, useEffectEvent } from 'react';
import { useEnvironment } from '../environment-context';

export interface PrimaryActionProps {
  readonly text: string;
  readonly onClick: () => void;
  readonly loading?: boolean;
  readonly disabled?: boolean;
  readonly submit?: boolean;
  readonly testId?: string;
}

/** True where the main button stands in for the in-page one: inside Telegram, once mounted. */
export function useNativeMainButton(): boolean {
  const { inTelegram } = useEnvironment();
  return inTelegram && mainButton.isMounted();
}

export function PrimaryAction({
  text,
  onClick,
  loading = false,
  disabled = false,
  submit = false,
  testId,
}: PrimaryActionProps) {
  const native = useNativeMainButton();
  const pressed = useEffectEvent(() => {
    if (!disabled && !loading) onClick();
  });

  useEffect(() => {
    if (!native) return;
    const off = mainButton.onClick(pressed);
    return () => {
      off();
      mainButton.setParams.ifAvailable({ isVisible: false, isLoaderVisible: false });
    };
  }, [native]);

  useEffect(() => {
    if (!native) return;
    mainButton.setParams.ifAvailable({
      text,
      isVisible: true,
      isEnabled: !disabled && !loading,
      isLoaderVisible: loading,
    });
  }, [native, text, disabled, loading]);

  if (native) return null;
  return (
    <Button
      size="l"
      stretched
      type={submit ? 'submit' : 'button'}
      loading={loading}
      disabled={disabled || loading}
      onClick={submit ? undefined : onClick}
      data-testid={testId}
    >
      {text}
    </Button>
  );
}
