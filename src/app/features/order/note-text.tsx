/**
 * A note's heading on its own line above its sentence: side by side they read as one broken
 * sentence ("Your money Do not pay…").
 */
export function NoteText({ heading, text }: { readonly heading: string; readonly text: string }) {
  return (
    <>
      <p className="warning-box__heading">
        <strong>{heading}</strong>
      </p>
      <p className="warning-box__text">{text}</p>
    </>
  );
}
