/**
 * Component tests render the real app: `renderApp(path)` mounts `<AppRoutes />` (or any element)
 * inside the providers main.tsx and root.tsx use — LanguageProvider, EnvironmentContext (a demo
 * browser, not Telegram), the UI kit's AppRoot — with a wouter Router on an in-memory location
 * that records every navigation, so a test reads where the app went from `location.history`.
 *
 * Navigation state: the screens read it with `useHistoryState` from wouter/use-browser-location,
 * i.e. from `window.history.state`, which the memory router neither reads nor writes. A test that
 * opens a screen with state passes `historyState` (put into jsdom's history before rendering);
 * a test that checks the state a screen navigates with reads `location.state` (where the memory
 * router keeps it). jsdom's history is shared by the tests of a file, so it is reset every time.
 *
 * `fakeApi(routes)` replaces `fetch`: each call is answered by the last matching route (so a
 * test can override a default with `api.on(...)`), recorded with its parsed JSON body, and
 * anything unmatched is answered 501 and listed in `api.unmatched`. Replies are plain objects
 * resolved in microtasks (no undici streams), so fake timers drive them deterministically.
 *
 * @telegram-apps/sdk-react is not mocked: it imports cleanly in jsdom and, outside Telegram, its
 * `ifAvailable` / `isAvailable` calls do nothing, so the app takes its browser fallbacks
 * (`window.alert`, `window.confirm`, `window.open`), which `stubDialogs()` replaces.
 */
import { AppRoot } from '@telegram-apps/telegram-ui';
import { loadAllLocales } from '../../i18n/i18n-util.sync';
import { act, fireEvent, render, type RenderResult } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { afterEach, beforeEach, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { EnvironmentContext } from '../../src/app/environment-context';
import { LanguageProvider } from '../../src/app/i18n/language';
import { AppRoutes, preloadEveryScreen } from '../../src/app/routes';
import type { AppEnvironment } from '../../src/app/telegram/environment';
import type { Language } from '../../src/shared/api';

// The app loads each flow's screens, and each dictionary and namespace (the console's words), on
// demand; a component test has them all loaded up front (the sync loader merges the namespaces into
// each dictionary), so that a screen renders at once and fake timers drive only the app's own timing.
loadAllLocales();
await preloadEveryScreen();

export const TEST_ENVIRONMENT: AppEnvironment = {
  inTelegram: false,
  demo: true,
  supportUrl: 'https://t.me/exchange_support',
  appearance: 'light',
  platform: 'base',
};

export interface RenderAppOptions {
  /** Stored as `selectedLanguage` before rendering; nothing stored means the default, ru. */
  readonly language?: Language;
  /** `window.history.state` while the screen renders (payment's order, office-details). */
  readonly historyState?: unknown;
  /** What to render instead of `<AppRoutes />`. */
  readonly element?: ReactElement;
}

export interface RenderedApp extends RenderResult {
  /** The memory location: `history` lists every path visited, `state` the last state passed. */
  readonly location: ReturnType<typeof memoryLocation<unknown>> & {
    readonly history: string[];
  };
  /** The path the app shows now. */
  readonly currentPath: () => string;
}

export function AppProviders({
  location,
  children,
}: {
  readonly location: ReturnType<typeof memoryLocation>;
  readonly children: ReactNode;
}) {
  return (
    <LanguageProvider>
      <EnvironmentContext.Provider value={TEST_ENVIRONMENT}>
        <AppRoot appearance={TEST_ENVIRONMENT.appearance} platform={TEST_ENVIRONMENT.platform}>
          <Router hook={location.hook} searchHook={location.searchHook}>
            {children}
          </Router>
        </AppRoot>
      </EnvironmentContext.Provider>
    </LanguageProvider>
  );
}

export function renderApp(path: string, options: RenderAppOptions = {}): RenderedApp {
  if (options.language !== undefined) localStorage.setItem('selectedLanguage', options.language);
  window.history.replaceState(options.historyState ?? null, '', path);
  const location = memoryLocation({ path, record: true });
  const element = options.element ?? <AppRoutes />;
  const result = render(<AppProviders location={location}>{element}</AppProviders>);
  return { ...result, location, currentPath: () => location.history.at(-1) ?? path };
}

/**
 * Runs fake timers forward by `ms` inside act, letting every promise the timers start settle,
 * so React has rendered what the app did by the time the test looks.
 */
export async function advance(ms: number): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

/** Lets pending promises (fetch answers) settle and React render, without moving the clock. */
export async function settle(): Promise<void> {
  await act(async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
    if (vi.isFakeTimers()) await vi.advanceTimersByTimeAsync(0);
  });
}

/** Stubs window.alert and window.confirm, which the app falls back to outside Telegram. */
export function stubDialogs(confirmAnswer = true) {
  const alert = vi.fn<(message?: unknown) => void>();
  const confirm = vi.fn<(message?: string) => boolean>(() => confirmAnswer);
  const open = vi.fn<typeof window.open>(() => null);
  vi.stubGlobal('alert', alert);
  vi.stubGlobal('confirm', confirm);
  vi.stubGlobal('open', open);
  return { alert, confirm, open };
}

// ---------------------------------------------------------------------------------------------
// The fake API

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiCall {
  readonly method: HttpMethod;
  /** The path without the query. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** The parsed JSON body of a POST, undefined for a GET. */
  readonly body: unknown;
  readonly headers: Record<string, string>;
}

/**
 * An answer: JSON with a status (200 by default) and headers (an ETag), or no answer at all
 * (fetch rejects).
 */
export type FakeReply =
  | {
      readonly status?: number;
      readonly json?: unknown;
      readonly headers?: Readonly<Record<string, string>>;
    }
  | 'network-error';

export interface FakeRoute {
  readonly method: HttpMethod;
  readonly path: string | RegExp | ((path: string) => boolean);
  readonly reply: FakeReply | ((call: ApiCall) => FakeReply | Promise<FakeReply>);
}

export interface FakeApi {
  readonly calls: ApiCall[];
  readonly unmatched: ApiCall[];
  /** Calls to one method and path (a string is compared exactly, a RegExp tested). */
  readonly callsTo: (method: HttpMethod, path: string | RegExp) => ApiCall[];
  /** Adds a route that wins over every earlier one. */
  readonly on: (method: HttpMethod, path: FakeRoute['path'], reply: FakeRoute['reply']) => FakeApi;
}

function matches(route: FakeRoute, method: HttpMethod, path: string): boolean {
  if (route.method !== method) return false;
  if (typeof route.path === 'string') return route.path === path;
  if (route.path instanceof RegExp) return route.path.test(path);
  return route.path(path);
}

function abortError(): DOMException {
  return new DOMException('The operation was aborted.', 'AbortError');
}

export function fakeApi(routes: readonly FakeRoute[] = []): FakeApi {
  const table: FakeRoute[] = [...routes];
  const calls: ApiCall[] = [];
  const unmatched: ApiCall[] = [];

  const fetchMock = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      'http://app.test',
    );
    const method = (init.method ?? 'GET').toUpperCase() as HttpMethod;
    const call: ApiCall = {
      method,
      path: url.pathname,
      query: url.searchParams,
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      headers: { ...(init.headers as Record<string, string> | undefined) },
    };
    calls.push(call);
    const signal = init.signal;
    // A function, not a narrowed property: the signal can abort while the reply is awaited.
    const aborted = () => signal?.aborted === true;
    if (aborted()) throw abortError();

    const route = [...table].reverse().find((r) => matches(r, method, call.path));
    let reply: FakeReply;
    if (route === undefined) {
      unmatched.push(call);
      reply = { status: 501, json: { error: `no fake route for ${method} ${call.path}` } };
    } else {
      reply = typeof route.reply === 'function' ? await route.reply(call) : route.reply;
    }
    // An answer that arrives after the caller gave up is never seen, as with a real fetch.
    await Promise.resolve();
    if (aborted()) throw abortError();
    if (reply === 'network-error') throw new TypeError('Failed to fetch');
    const status = reply.status ?? 200;
    const json = reply.json;
    return {
      ok: status >= 200 && status < 300,
      status,
      headers: new Headers(reply.headers),
      json: () =>
        json === undefined
          ? Promise.reject(new SyntaxError('Unexpected end of JSON input'))
          : Promise.resolve(structuredClone(json)),
    } as Response;
  };
  vi.stubGlobal('fetch', vi.fn(fetchMock));

  const api: FakeApi = {
    calls,
    unmatched,
    callsTo: (method, path) =>
      calls.filter(
        (c) =>
          c.method === method && (typeof path === 'string' ? c.path === path : path.test(c.path)),
      ),
    on: (method, path, reply) => {
      table.push({ method, path, reply });
      return api;
    },
  };
  return api;
}

/** A promise a test resolves when it chooses (an answer held back). */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * The set-up every screen test file shares: fake timers (at `now` when given), alert, confirm and
 * open stubbed, console.warn silenced (the app logs failed calls), and all of it
 * undone after each test. Read `setup.dialogs` inside a test for that test's dialogs.
 */
export function setUpScreenTests(now?: number | Date): {
  readonly dialogs: ReturnType<typeof stubDialogs>;
} {
  const state: { dialogs: ReturnType<typeof stubDialogs> | undefined } = { dialogs: undefined };
  beforeEach(() => {
    vi.useFakeTimers();
    if (now !== undefined) vi.setSystemTime(now);
    state.dialogs = stubDialogs();
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
  return {
    get dialogs() {
      if (state.dialogs === undefined) throw new Error('setup.dialogs is only there inside a test');
      return state.dialogs;
    },
  };
}

/** The input of a form field by its name. */
export function input(name: string): HTMLInputElement {
  const element = document.querySelector<HTMLInputElement>(`input[name="${name}"]`);
  if (element === null) throw new Error(`no input ${name}`);
  return element;
}

/** The network select of a buy or sell form. */
export function networkSelect(): HTMLSelectElement {
  const element = document.querySelector<HTMLSelectElement>('select[name="network"]');
  if (element === null) throw new Error('no network select');
  return element;
}

/** Types `value` into the field `name` as one change, as a paste does. */
export const type = (name: string, value: string) =>
  fireEvent.change(input(name), { target: { value } });
