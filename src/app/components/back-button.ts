/**
 * Inside Telegram the client's native back button replaces the header's arrow: shown while a
 * screen with a back target is mounted, hidden when it unmounts.
 */
import { backButton } from '@telegram-apps/sdk-react';
import { useEffect } from 'react';

export function useNativeBackButton(onBack: (() => void) | undefined, enabled: boolean): void {
  useEffect(() => {
    if (!enabled || onBack === undefined || !backButton.isMounted()) return;
    backButton.show();
    const off = backButton.onClick(onBack);
    return () => {
      off();
      backButton.hide();
    };
  }, [onBack, enabled]);
}
