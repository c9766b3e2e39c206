/** A saved item's label as typed, checked by the shared schema's rule before anything is sent. */
import * as v from 'valibot';
import type { TranslationFunctions } from '../../../../i18n/i18n-types';
import type { Language } from '../../../shared/api';
import { SAVED_LABEL_MAX } from '../../../shared/limits';
import { RenameSavedSchema } from '../../../shared/schemas/saved-details';
import { formErrorText } from '../../components/form-error-text';

export type LabelCheck =
  { readonly ok: true; readonly label: string } | { readonly ok: false; readonly error: string };

export function checkSavedLabel(
  typed: string,
  LL: TranslationFunctions,
  language: Language,
): LabelCheck {
  const result = v.safeParse(RenameSavedSchema, { label: typed });
  if (result.success) return { ok: true, label: result.output.label };
  const text = formErrorText(result.issues[0].message, LL, { language });
  return { ok: false, error: text ?? LL.errors.fillAllFields() };
}

/** A label proposed for the customer to keep or edit, cut to what a label may hold. */
export function proposedLabel(text: string): string {
  return text.trim().slice(0, SAVED_LABEL_MAX);
}
