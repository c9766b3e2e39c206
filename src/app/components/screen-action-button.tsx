/**
 * A screen's own action below its content: a large button as wide as the screen, in the row of
 * actions. The buttons Telegram's main button stands in for are PrimaryAction instead.
 */
import { Button } from '@telegram-apps/telegram-ui';
import type { ComponentProps } from 'react';

export function ScreenActionButton({
  testId,
  ...button
}: Omit<ComponentProps<typeof Button>, 'size' | 'stretched'> & { readonly testId: string }) {
  return (
    <div className="screen__actions">
      <Button size="l" stretched {...button} data-testid={testId} />
    </div>
  );
}
