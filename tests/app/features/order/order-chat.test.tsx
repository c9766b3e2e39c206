/**
 * The order chat's screen and the way to it, with the API and the clock faked: the exchange's
 * messages and the customer's told apart by side and by name, text shown as text, a failed send
 * keeping what was typed and saying why in the customer's language, the chat asked again with
 * If-None-Match, the chat button's unread count from the status answer (zero once the chat was
 * read), the history card's count and the verification code on the order's details.
 */
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChatResponse } from '../../../../src/shared/api';
import { withSent } from '../../../../src/app/hooks/use-order-chat';
import {
  FIXTURE_CARD,
  iso,
  orderSummary,
  serveHistory,
  serveOrder,
} from '../../../helpers/order-fixtures';
import {
  advance,
  fakeApi,
  renderApp,
  settle,
  setUpScreenTests,
  type FakeApi,
} from '../../../helpers/render-app';

const NOW = Date.parse('2025-03-01T12:00:00.000Z');
setUpScreenTests(NOW);

const message = (id: number, fields: Partial<ChatMessage> = {}): ChatMessage => ({
  id,
  author: 'operator',
  text: `message ${id}`,
  attachment: null,
  createdAt: iso(NOW - 60_000 + id),
  ...fields,
});

/** Serves the chat of `id` (with an ETag, and 304 to it) and answers a write with `write`. */
function serveChat(
  id: string,
  messages: ChatMessage[],
  write: (text: string) => { status: number; json: unknown },
): FakeApi {
  const chat = (): ChatResponse => ({ verificationCode: 'K7P3QX', messages });
  return fakeApi([
    {
      method: 'GET',
      path: `/api/orders/${id}/chat`,
      reply: (call) =>
        call.headers['if-none-match'] === `"v${messages.length}"`
          ? { status: 304 }
          : { json: chat(), headers: { etag: `"v${messages.length}"` } },
    },
    {
      method: 'POST',
      path: `/api/orders/${id}/chat`,
      reply: (call) => {
        const answer = write((call.body as { text: string }).text);
        if (answer.status === 201) messages.push(answer.json as ChatMessage);
        return answer;
      },
    },
  ]);
}

const field = () => screen.getByTestId<HTMLTextAreaElement>('chat-field');

describe('the chat screen', () => {
  it("tells the customer's messages from the exchange's by side and by name, and shows markup as text", async () => {
    const id = 'a0000000-0000-4000-8000-000000000001';
    serveChat(
      id,
      [
        message(1, { author: 'customer', text: 'Paid' }),
        message(2, { text: '<b>bold</b><img src=x onerror="alert(1)">' }),
      ],
      () => ({ status: 500, json: {} }),
    );
    renderApp(`/order/${id}/chat`, { language: 'en' });
    await settle();
    const [mine, theirs] = document.querySelectorAll<HTMLElement>('.chat-message');
    expect(mine?.className).toContain('chat-message--mine');
    expect(within(mine as HTMLElement).getByText('You')).toBeTruthy();
    expect(theirs?.className).toContain('chat-message--theirs');
    expect(within(theirs as HTMLElement).getByText('Exchange')).toBeTruthy();
    const text = theirs?.querySelector('.chat-message__text');
    expect(text?.textContent).toBe('<b>bold</b><img src=x onerror="alert(1)">');
    expect(text?.querySelector('b, img')).toBeNull();
    expect(screen.getByTestId('verification-code').textContent).toBe('K7P3QX');
  });

  it("every message of the exchange carries the order's verification code, the customer's own none (ru and en)", async () => {
    const id = 'a0000000-0000-4000-8000-000000000009';
    serveChat(
      id,
      [message(1, { author: 'customer', text: 'Оплатил' }), message(2), message(3)],
      () => ({ status: 500, json: {} }),
    );
    renderApp(`/order/${id}/chat`, { language: 'ru' });
    await settle();
    const codes = () =>
      [...document.querySelectorAll<HTMLElement>('.chat-message')].map(
        (one) => within(one).queryByTestId('chat-message-code')?.textContent ?? null,
      );
    expect(codes()).toEqual([null, '🔐 Код K7P3QX', '🔐 Код K7P3QX']);
    fireEvent.click(screen.getByRole('button', { name: 'EN' }));
    await settle();
    expect(codes()).toEqual([null, '🔐 Code K7P3QX', '🔐 Code K7P3QX']);
  });

  it('a refused send keeps the text in the field and says why (RATE_LIMITED, in Russian); a later send clears it', async () => {
    const id = 'a0000000-0000-4000-8000-000000000002';
    let refuse = true;
    serveChat(id, [], (text) =>
      refuse
        ? { status: 429, json: { error: 'rate limited', code: 'RATE_LIMITED' } }
        : { status: 201, json: message(5, { author: 'customer', text }) },
    );
    renderApp(`/order/${id}/chat`, { language: 'ru' });
    await settle();
    fireEvent.change(field(), { target: { value: 'Где мои USDT?' } });
    fireEvent.click(screen.getByTestId('chat-send'));
    await settle();
    expect(screen.getByRole('alert').textContent).toContain(
      'Слишком много запросов. Попробуйте чуть позже.',
    );
    expect(field().value).toBe('Где мои USDT?');
    refuse = false;
    fireEvent.click(screen.getByTestId('chat-send'));
    await settle();
    expect(field().value).toBe('');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('Где мои USDT?').closest('.chat-message')?.className).toContain(
      'chat-message--mine',
    );
  });

  it("an empty message is refused with MESSAGE_EMPTY in the customer's language", async () => {
    const id = 'a0000000-0000-4000-8000-000000000003';
    serveChat(id, [], () => ({
      status: 400,
      json: { error: 'empty', code: 'MESSAGE_EMPTY' },
    }));
    renderApp(`/order/${id}/chat`, { language: 'en' });
    await settle();
    fireEvent.click(screen.getByTestId('chat-send'));
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('Write a message or attach a file');
  });

  it('asks again every 3 s with the ETag it holds, and shows a new message when one comes', async () => {
    const id = 'a0000000-0000-4000-8000-000000000004';
    const messages = [message(1)];
    const api = serveChat(id, messages, () => ({ status: 500, json: {} }));
    renderApp(`/order/${id}/chat`, { language: 'en' });
    await settle();
    await advance(3_000);
    const reads = api.callsTo('GET', `/api/orders/${id}/chat`);
    expect(reads).toHaveLength(2);
    expect(reads[1]?.headers['if-none-match']).toBe('"v1"');
    messages.push(message(2, { text: 'New one' }));
    await advance(3_000);
    expect(screen.getByText('New one')).toBeTruthy();
  });
});

describe('the way to the chat', () => {
  it("every order screen's chat button carries the status answer's unread count, in its name", async () => {
    const id = 'a0000000-0000-4000-8000-000000000005';
    serveOrder(
      { id },
      {
        status: 'REQUISITES_READY',
        requisites: FIXTURE_CARD,
        requisitesReadyAt: iso(NOW),
        expiresAt: iso(NOW + 30 * 60_000),
        unreadMessages: 2,
      },
    );
    renderApp(`/order/${id}/payment`, { language: 'en' });
    await settle();
    const button = screen.getByTestId('order-chat');
    expect(button.getAttribute('data-unread')).toBe('2');
    expect(screen.getByRole('button', { name: 'Chat, 2\u00a0unread' })).toBe(button);
    expect(screen.getByTestId('order-verification-code').textContent).toContain('K7P3QX');
  });

  it('the history card counts the unread messages of the exchange', async () => {
    serveHistory([
      orderSummary({ unreadMessages: 3 }),
      orderSummary({ id: 'b', unreadMessages: 0 }),
    ]);
    renderApp('/my-orders', { language: 'ru' });
    await settle();
    const counts = screen.getAllByTestId('card-unread');
    expect(counts).toHaveLength(1);
    expect(counts[0]?.textContent).toBe('3\u00a0новых сообщения');
  });
});

describe('withSent', () => {
  it('adds the messages sent here that no read has brought yet, in the order of their ids', () => {
    const read = [message(1), message(3)];
    expect(withSent(read, [message(2), message(3)]).map((m) => m.id)).toEqual([1, 2, 3]);
    expect(withSent(read, [message(3)])).toBe(read);
  });
});
