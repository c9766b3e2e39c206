/** The time left on an order's deadline, red with its warning once below the threshold. */
import { Text } from '@telegram-apps/telegram-ui';

export function CountdownBanner({
  text,
  warning,
  note,
}: {
  readonly text: string;
  /** Shown, and the banner turns red, while below the warning threshold. */
  readonly warning?: string | null | undefined;
  readonly note?: string | undefined;
}) {
  const warn = warning !== undefined && warning !== null;
  return (
    <div className={warn ? 'countdown countdown--warning' : 'countdown'} data-testid="countdown">
      <Text weight="2">{text}</Text>
      {warn && <Text className="countdown__warning">{warning}</Text>}
      {note !== undefined && <Text className="countdown__note">{note}</Text>}
    </div>
  );
}
