/** What every form of the app does the same way with react-hook-form. */
import {
  useWatch,
  type FieldValues,
  type Path,
  type PathValue,
  type UseFormReturn,
} from 'react-hook-form';

/**
 * Sets a field as the customer typed it: checked at once after a first submit (so a message
 * already shown follows the typing), quietly before it.
 */
export function fieldSetter<T extends FieldValues>(form: UseFormReturn<T>) {
  return <N extends Path<T>>(name: N, value: PathValue<T, N>): void => {
    form.setValue(name, value, { shouldValidate: form.formState.isSubmitted });
  };
}

/**
 * Whether any of the fields the customer types differs from what the form opened with (empty, or
 * a repeated order's values). The fields are set through `fieldSetter`, which react-hook-form
 * does not count as dirtying them, so they are compared here.
 */
export function useFormHoldsInput<T extends FieldValues>(
  form: UseFormReturn<T>,
  typed: readonly Path<T>[],
): boolean {
  const values: unknown[] = useWatch({ control: form.control, name: [...typed] });
  const opened = form.formState.defaultValues as Partial<Record<string, unknown>> | undefined;
  return typed.some((name, index) => values[index] !== (opened?.[name] ?? ''));
}
