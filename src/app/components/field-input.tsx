/**
 * A form field with the message of the rule it does not pass under it (FieldError): the field is
 * marked as wrong exactly while there is a message. A `code` field (a wallet address, a
 * transaction hash) is taken letter for letter: no autocompletion, capitals or spelling fixes.
 */
import { Input } from '@telegram-apps/telegram-ui';
import type { ComponentProps } from 'react';
import { FieldError } from './field-error';

const AS_TYPED = { autoComplete: 'off', autoCapitalize: 'off', spellCheck: false } as const;

export function FieldInput({
  error,
  errorTestId,
  code = false,
  ...input
}: Omit<ComponentProps<typeof Input>, 'status'> & {
  /** The translated message, or null while the value passes. */
  readonly error: string | null;
  readonly errorTestId: string;
  readonly code?: boolean;
}) {
  return (
    <>
      <Input
        {...(code ? AS_TYPED : {})}
        // The kit draws the header beside the field, outside its <label>: the field is named here.
        aria-label={typeof input.header === 'string' ? input.header : undefined}
        {...input}
        status={error === null ? 'default' : 'error'}
      />
      {error !== null && <FieldError text={error} testId={errorTestId} />}
    </>
  );
}
