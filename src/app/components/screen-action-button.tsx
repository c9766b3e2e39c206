/**
 * A screen's own action below its content: a large button as wide as the screen. The buttons
 * Telegram's main button stands in for are PrimaryAction instead.
 */
import { Button } from '@telegram-apps/telegram-ui';
import type { ComponentProps } from 'react';

type ScreenButtonProps = Omit<ComponentProps<typeof Button>, 'size' | 'stretched'> & {
  readonly testId?: string;
};

/** One button of a row of actions the screen lays out itself (several in one `screen__actions`). */
export function ScreenButton({ testId, ...button }: ScreenButtonProps) {
  return <Button size="l" stretched {...button} data-testid={testId} />;
}

/** A screen's one action, in its own row of actions. */
export function ScreenActionButton(props: ScreenButtonProps & { readonly testId: string }) {
  return (
    <div className="screen__actions">
      <ScreenButton {...props} />
    </div>
  );
}
