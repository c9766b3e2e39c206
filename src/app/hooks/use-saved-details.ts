/**
 * The caller's saved wallets and cards, asked once when a screen needs them; a write (save,
 * rename, delete) shows the list its answer carries, the list as the server now keeps it.
 */
import { useCallback, useState } from 'react';
import type { SavedDetailsResponse } from '../../shared/schemas/saved-details';
import { fetchSavedDetails } from '../api/saved-details';
import { useFetchState } from './use-fetch-state';

export interface SavedDetailsState {
  /** The list, once asked (or as the last write answered it). */
  readonly details: SavedDetailsResponse | undefined;
  /** The ask failed and nothing is known (a form then offers nothing; settings says so). */
  readonly failed: boolean;
  readonly reload: () => void;
  /** Makes a write and shows the list it answers; its failure is the caller's to say. */
  readonly write: (call: () => Promise<SavedDetailsResponse>) => Promise<void>;
}

export function useSavedDetails(): SavedDetailsState {
  const [written, setWritten] = useState<SavedDetailsResponse | undefined>(undefined);
  const state = useFetchState('saved-details', (signal) => fetchSavedDetails(signal), {
    onData: () => setWritten(undefined),
    onError: (error) => console.warn('saved details failed', error),
  });
  const write = useCallback(async (call: () => Promise<SavedDetailsResponse>) => {
    setWritten(await call());
  }, []);
  const details = written ?? state.data;
  return {
    details,
    failed: details === undefined && state.error !== undefined,
    reload: state.reload,
    write,
  };
}
