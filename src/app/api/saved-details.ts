/**
 * The saved-details calls (src/shared/api.ts, `API_PATHS.saved*`): every write answers the whole
 * list as the server now keeps it, so a screen shows that answer rather than guessing.
 */
import { API_PATHS } from '../../shared/api';
import type {
  SaveOrderCardPayload,
  SaveWalletPayload,
  SavedDetailsResponse,
  SavedKind,
} from '../../shared/schemas/saved-details';
import { apiRequest } from './client';

export function fetchSavedDetails(signal?: AbortSignal): Promise<SavedDetailsResponse> {
  return apiRequest<SavedDetailsResponse>(API_PATHS.savedDetails, signal ? { signal } : {});
}

export function saveWallet(payload: SaveWalletPayload): Promise<SavedDetailsResponse> {
  return apiRequest<SavedDetailsResponse>(API_PATHS.savedWallets, {
    method: 'POST',
    body: payload,
  });
}

/** Saves the card a sell of the caller's pays out to: the server reads it from the order. */
export function saveOrderCard(payload: SaveOrderCardPayload): Promise<SavedDetailsResponse> {
  return apiRequest<SavedDetailsResponse>(API_PATHS.savedCardFromOrder, {
    method: 'POST',
    body: payload,
  });
}

export function renameSaved(
  kind: SavedKind,
  id: number,
  label: string,
): Promise<SavedDetailsResponse> {
  return apiRequest<SavedDetailsResponse>(API_PATHS.savedItem(kind, id), {
    method: 'PATCH',
    body: { label },
  });
}

export function deleteSaved(kind: SavedKind, id: number): Promise<SavedDetailsResponse> {
  return apiRequest<SavedDetailsResponse>(API_PATHS.savedItem(kind, id), { method: 'DELETE' });
}
