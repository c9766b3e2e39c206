/**
 * The primary action of a screen, as a native app has it: inside Telegram it is Telegram's
 * main button (text, loader, enabled state), bound while the screen shows it and hidden when it
 * goes; in a plain browser it is an in-page button. The SDK's main button is replaced by a fake
 * that records what the app asked of it.
 */
import type * as SdkReact from '@telegram-apps/sdk-react';
import { AppRoot } from '@telegram-apps/telegram-ui';
import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PrimaryAction } from '../../../src/app/components/primary-action';
import { EnvironmentContext } from '../../../src/app/environment-context';
import { TEST_ENVIRONMENT } from '../../helpers/render-app';

const fake = vi.hoisted(() => {
  const listeners = new Set<() => void>();
  const setParams = Object.assign(vi.fn(), { ifAvailable: vi.fn() });
  return {
    listeners,
    setParams,
    mainButton: {
      isMounted: () => true,
      onClick: (listener: () => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      setParams,
    },
  };
});

vi.mock('@telegram-apps/sdk-react', async (original) => ({
  ...(await original<typeof SdkReact>()),
  mainButton: fake.mainButton,
}));

function renderAction(inTelegram: boolean, props: { loading?: boolean; disabled?: boolean }) {
  const onClick = vi.fn();
  const element = (p: typeof props) => (
    <EnvironmentContext.Provider value={{ ...TEST_ENVIRONMENT, inTelegram }}>
      <AppRoot>
        <PrimaryAction text="I have paid" onClick={onClick} testId="primary" {...p} />
      </AppRoot>
    </EnvironmentContext.Provider>
  );
  const result = render(element(props));
  return { ...result, onClick, rerender: (p: typeof props) => result.rerender(element(p)) };
}

const press = () =>
  act(() => {
    for (const listener of fake.listeners) listener();
  });
const lastParams = () => fake.setParams.ifAvailable.mock.calls.at(-1)?.[0] as unknown;

beforeEach(() => {
  fake.listeners.clear();
  fake.setParams.ifAvailable.mockClear();
});

describe('inside Telegram the primary action is the main button', () => {
  it('shown with the text and enabled; pressing it runs the action; no in-page button', () => {
    const { onClick } = renderAction(true, {});
    expect(screen.queryByTestId('primary')).toBeNull();
    expect(lastParams()).toEqual({
      text: 'I have paid',
      isVisible: true,
      isEnabled: true,
      isLoaderVisible: false,
    });
    press();
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('loading shows its loader, disabled greys it, and neither runs the action', () => {
    const { onClick, rerender } = renderAction(true, { loading: true });
    expect(lastParams()).toMatchObject({ isEnabled: false, isLoaderVisible: true });
    press();
    rerender({ disabled: true });
    expect(lastParams()).toMatchObject({ isEnabled: false, isLoaderVisible: false });
    press();
    expect(onClick).not.toHaveBeenCalled();
    rerender({});
    press();
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('hidden, and its listener removed, when the screen goes', () => {
    const { unmount } = renderAction(true, {});
    expect(fake.listeners.size).toBe(1);
    unmount();
    expect(fake.listeners.size).toBe(0);
    expect(lastParams()).toEqual({ isVisible: false, isLoaderVisible: false });
  });
});

describe('in a plain browser it is an in-page button', () => {
  it('which runs the action; the main button is never touched', () => {
    const { onClick } = renderAction(false, {});
    act(() => screen.getByTestId('primary').click());
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(fake.setParams.ifAvailable).not.toHaveBeenCalled();
    expect(fake.listeners.size).toBe(0);
  });
});
