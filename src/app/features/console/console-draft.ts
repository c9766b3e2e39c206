/**
 * What an operator typed into a form of an order (or of the rates: scope `rates`), kept in local
 * storage until the action is done: a money action refused on old init data (OPERATOR_REOPEN) asks them to
 * reopen the console, which in Telegram is a new page, and the reopened console fills the form in
 * again. Storage that is unavailable (a private window) keeps nothing and breaks nothing.
 */
import { useEffect } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';

const PREFIX = 'console_draft:';

const keyOf = (orderId: string, form: string) => `${PREFIX}${orderId}:${form}`;

/** The text fields typed into `form` of an order, or nothing. */
export function readDraft(orderId: string, form: string): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(keyOf(orderId, form)) ?? '{}');
    if (typeof parsed !== 'object' || parsed === null) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      ),
    );
  } catch {
    return {};
  }
}

/** Keeps the text fields of `form` of an order. */
export function writeDraft(orderId: string, form: string, values: unknown): void {
  try {
    localStorage.setItem(keyOf(orderId, form), JSON.stringify(values));
  } catch {
    // Full or unavailable: the form still holds it on this page.
  }
}

/** Forgets one form of an order (or of the rates): it was saved. */
export function forgetDraft(orderId: string, form: string): void {
  try {
    localStorage.removeItem(keyOf(orderId, form));
  } catch {
    // Nothing was kept.
  }
}

/** Forgets every form of an order: its action was done, or the order moved on. */
export function clearDrafts(orderId: string): void {
  try {
    const prefix = keyOf(orderId, '');
    const keys = Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i));
    for (const key of keys) if (key?.startsWith(prefix) === true) localStorage.removeItem(key);
  } catch {
    // Nothing was kept.
  }
}

/** Keeps what is typed into `form` of an order as it is typed. */
export function useFormDraft<T extends FieldValues>(
  orderId: string,
  form: string,
  methods: UseFormReturn<T>,
): void {
  useEffect(() => {
    const subscription = methods.watch((values) => writeDraft(orderId, form, values));
    return () => subscription.unsubscribe();
  }, [orderId, form, methods]);
}
