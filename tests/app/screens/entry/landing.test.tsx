/**
 * The landing's health indicator, on the app's fetch-state
 * mechanism: Checking while the first check runs, then Online or Offline, checked again 10 s
 * after each check (the 3 s time-out is the API client's, tested there). The API and the clock
 * are faked.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  advance,
  deferred,
  fakeApi,
  renderApp,
  settle,
  setUpScreenTests,
  type FakeReply,
} from '../../../helpers/render-app';

const HEALTH = '/api/health';
const state = () => screen.getByTestId('health-state').textContent;

setUpScreenTests(Date.parse('2025-03-01T12:00:00.000Z'));

describe('the health indicator', () => {
  it("says 'Checking...' until the first answer, then 'Online'", async () => {
    const held = deferred<FakeReply>();
    fakeApi([{ method: 'GET', path: HEALTH, reply: () => held.promise }]);
    renderApp('/', { language: 'en' });
    expect(state()).toBe('Checking...');
    held.resolve({ json: { ok: true } });
    await settle();
    expect(state()).toBe('Online');
  });

  it("says 'Offline' when the server is not ready (503: its database is down, or it is stopping), and 'Online' again once it is", async () => {
    let up = false;
    const notReady = {
      status: 503,
      json: { error: 'The service is temporarily unavailable.', code: 'SERVICE_UNAVAILABLE' },
    };
    fakeApi([
      {
        method: 'GET',
        path: HEALTH,
        reply: () => (up ? { json: { ok: true } } : notReady),
      },
    ]);
    renderApp('/', { language: 'en' });
    await settle();
    expect(state()).toBe('Offline');
    up = true;
    await advance(10_000);
    expect(state()).toBe('Online');
  });

  it("says 'Offline' when no answer comes at all", async () => {
    fakeApi([{ method: 'GET', path: HEALTH, reply: 'network-error' }]);
    renderApp('/', { language: 'en' });
    await settle();
    expect(state()).toBe('Offline');
  });

  it('checks again 10 s after each check', async () => {
    const api = fakeApi([{ method: 'GET', path: HEALTH, reply: { json: { ok: true } } }]);
    renderApp('/', { language: 'en' });
    await settle();
    expect(api.callsTo('GET', HEALTH)).toHaveLength(1);
    await advance(9_999);
    expect(api.callsTo('GET', HEALTH)).toHaveLength(1);
    await advance(1);
    expect(api.callsTo('GET', HEALTH)).toHaveLength(2);
    await advance(10_000);
    expect(api.callsTo('GET', HEALTH)).toHaveLength(3);
  });

  it('stops checking when the landing is left', async () => {
    const api = fakeApi([{ method: 'GET', path: HEALTH, reply: { json: { ok: true } } }]);
    const app = renderApp('/', { language: 'en' });
    await settle();
    app.unmount();
    await advance(30_000);
    expect(api.callsTo('GET', HEALTH)).toHaveLength(1);
  });
});
