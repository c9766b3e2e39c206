/** A value with tap-to-copy: 'Copied' for 2 s after a tap, with a light haptic. */
import { Cell } from '@telegram-apps/telegram-ui';
import { useEffect, useState } from 'react';
import { COPY_FEEDBACK_MS } from '../../shared/limits';
import { useI18nContext } from '../i18n/language';
import { hapticTap } from '../telegram/actions';

/** Copies text to the clipboard, with the old textarea trick where the API is missing. */
async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the only copy in WebViews without the Clipboard API
    document.execCommand('copy');
    area.remove();
  }
}

export function useCopyFeedback(): [boolean, (text: string) => void] {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return [
    copied,
    (text: string) => {
      hapticTap();
      void copyText(text).then(() => setCopied(true));
    },
  ];
}

export function CopyRow({
  label,
  value,
  copyValue = value,
  testId,
}: {
  readonly label: string;
  readonly value: string;
  readonly copyValue?: string;
  readonly testId?: string;
}) {
  const { LL } = useI18nContext();
  const [copied, copy] = useCopyFeedback();
  return (
    <Cell
      subhead={label}
      multiline
      data-testid={testId}
      data-copy-value={copyValue}
      after={
        <span className={copied ? 'copy-hint copy-hint--done' : 'copy-hint'}>
          {copied ? LL.common.copied() : LL.common.copy()}
        </span>
      }
      onClick={() => copy(copyValue)}
    >
      <span className="copy-value">{value}</span>
    </Cell>
  );
}
