/** What every form of the app does the same way with react-hook-form. */
import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form';

/**
 * Sets a field as the customer typed it: checked at once after a first submit (so a message
 * already shown follows the typing), quietly before it.
 */
export function fieldSetter<T extends FieldValues>(form: UseFormReturn<T>) {
  return <N extends Path<T>>(name: N, value: PathValue<T, N>): void => {
    form.setValue(name, value, { shouldValidate: form.formState.isSubmitted });
  };
}
