/** The frame of every screen: the shared header above a scrolling body. */
import type { ReactNode } from 'react';
import { Header, type HeaderProps } from './header';

export function Screen({
  header,
  children,
  testId,
}: {
  readonly header?: HeaderProps;
  readonly children: ReactNode;
  /** Names the screen for browser tests (`data-screen`). */
  readonly testId: string;
}) {
  return (
    <div className="screen" data-screen={testId}>
      {header !== undefined && <Header {...header} />}
      <main className="screen__body">{children}</main>
    </div>
  );
}
