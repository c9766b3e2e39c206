/**
 * A form field with the message of the rule it does not pass under it (FieldError): the field is
 * marked as wrong exactly while there is a message.
 */
import { Input } from '@telegram-apps/telegram-ui';
import type { ComponentProps } from 'react';
import { FieldError } from './field-error';

export function FieldInput({
  error,
  errorTestId,
  ...input
}: Omit<ComponentProps<typeof Input>, 'status'> & {
  /** The translated message, or null while the value passes. */
  readonly error: string | null;
  readonly errorTestId: string;
}) {
  return (
    <>
      <Input {...input} status={error === null ? 'default' : 'error'} />
      {error !== null && <FieldError text={error} testId={errorTestId} />}
    </>
  );
}
