import { createContext, useContext } from 'react';
import type { AppEnvironment } from './telegram/environment';

export const EnvironmentContext = createContext<AppEnvironment | null>(null);

/** Where the app runs (Telegram or the demo browser), its support link and its appearance. */
export function useEnvironment(): AppEnvironment {
  const value = useContext(EnvironmentContext);
  if (value === null) throw new Error('useEnvironment outside EnvironmentContext');
  return value;
}
