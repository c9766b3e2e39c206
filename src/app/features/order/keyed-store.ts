/**
 * A value per order (or any key) that several screens share outside React's tree: one screen's
 * answer notes it, every component showing it re-renders. A note of the very value it holds
 * changes nothing.
 */
import { useSyncExternalStore } from 'react';

export interface KeyedStore<T> {
  readonly note: (key: string, value: T) => void;
  /** The value as last noted; undefined until one was. */
  readonly useValue: (key: string) => T | undefined;
}

export function keyedStore<T>(): KeyedStore<T> {
  const values = new Map<string, T>();
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  return {
    note: (key, value) => {
      if (values.get(key) === value) return;
      values.set(key, value);
      for (const listener of listeners) listener();
    },
    useValue: (key) => useSyncExternalStore(subscribe, () => values.get(key)),
  };
}
