/**
 * The actions of a screen at its bottom ("Native feel"): the primary one (Continue, I have paid,
 * Send, I received) and its second one (cancel beside 'I have paid'). Inside Telegram they are
 * Telegram's main and secondary buttons, shown with the action's text, loader and enabled state
 * while the screen shows them, and hidden when the screen goes; in a plain browser, and on a
 * client without the button (the secondary one came with Mini Apps 7.10), the same action is an
 * in-page button. `submit` makes the in-page primary button its form's submit button (Enter in a
 * field submits too); Telegram's buttons call `onClick`.
 */
import { mainButton, secondaryButton } from '@telegram-apps/sdk-react';
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

/** What the main and the secondary button have alike, as this file drives them. */
interface BottomButton {
  readonly isMounted: () => boolean;
  readonly onClick: (listener: () => void) => () => void;
  readonly setParams: {
    readonly ifAvailable: (params: {
      readonly text?: string;
      readonly isVisible?: boolean;
      readonly isEnabled?: boolean;
      readonly isLoaderVisible?: boolean;
    }) => unknown;
  };
}

/** True where `button` stands in for the in-page one: inside Telegram, once mounted. */
function useNative(button: BottomButton, wanted = true): boolean {
  const { inTelegram } = useEnvironment();
  return wanted && inTelegram && button.isMounted();
}

/** True where the main button stands in for the in-page one: inside Telegram, once mounted. */
export function useNativeMainButton(): boolean {
  return useNative(mainButton);
}

/**
 * Shows `button` with the action while the caller is mounted, when it stands in for the in-page
 * one; answers whether it does.
 */
function useBottomButton(
  button: BottomButton,
  { text, onClick, loading = false, disabled = false }: PrimaryActionProps,
  wanted = true,
): boolean {
  const native = useNative(button, wanted);
  const pressed = useEffectEvent(() => {
    if (!disabled && !loading) onClick();
  });

  useEffect(() => {
    if (!native) return;
    const off = button.onClick(pressed);
    return () => {
      off();
      button.setParams.ifAvailable({ isVisible: false, isLoaderVisible: false });
    };
  }, [native, button]);

  useEffect(() => {
    if (!native) return;
    button.setParams.ifAvailable({
      text,
      isVisible: true,
      isEnabled: !disabled && !loading,
      isLoaderVisible: loading,
    });
  }, [native, button, text, disabled, loading]);

  return native;
}

export function PrimaryAction(props: PrimaryActionProps) {
  const native = useBottomButton(mainButton, props);
  if (native) return null;
  const { text, onClick, loading = false, disabled = false, submit = false, testId } = props;
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

/**
 * A second action: Telegram's secondary button where it stands beside the screen's primary
 * action (`beside`), otherwise (and wherever there is no secondary button) a plain in-page one.
 */
export function SecondaryAction({
  beside = true,
  ...props
}: Omit<PrimaryActionProps, 'submit'> & { readonly beside?: boolean }) {
  const native = useBottomButton(secondaryButton, props, beside);
  if (native) return null;
  const { text, onClick, loading = false, disabled = false, testId } = props;
  return (
    <Button
      size="l"
      stretched
      mode="plain"
      loading={loading}
      disabled={disabled || loading}
      onClick={onClick}
      data-testid={testId}
    >
      {text}
    </Button>
  );
}
