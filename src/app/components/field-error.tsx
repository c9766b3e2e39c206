/** The message under a form field that does not pass its rule (red, read out by screen readers). */
export function FieldError({ text, testId }: { readonly text: string; readonly testId: string }) {
  return (
    <p className="field-error" role="alert" data-testid={testId}>
      {text}
    </p>
  );
}
