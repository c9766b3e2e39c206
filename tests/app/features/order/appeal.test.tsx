/**
 * The customer's appeal, with the API and the clock faked: the form's own rules (a reason, said
 * in the customer's language and re-said in another; at most APPEAL_EVIDENCE_MAX files, a new one
 * counted; printable words), a new file sent to the chat once and named after the ticked ones, the offer on the order
 * screens where the shared rule takes an appeal and not before, what is sent, a refusal said in
 * the customer's language, and the appeal's state (under review, then decided) on the order's
 * screens.
 */
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AppealView, ChatMessage, OrderDetails } from '../../../../src/shared/api';
import { APPEAL_EVIDENCE_MAX } from '../../../../src/shared/schemas/appeals';
import { iso, serveOrder } from '../../../helpers/order-fixtures';
import { advance, renderApp, settle, setUpScreenTests } from '../../../helpers/render-app';

const NOW = Date.parse('2025-03-01T12:00:00.000Z');
setUpScreenTests(NOW);
const ID = '3f9c2a7b-61d4-4e0a-9b7c-2d5e8f1a0c34';

const file = (id: number): ChatMessage => ({
  id,
  author: 'customer',
  text: null,
  attachment: { fileName: `receipt-${id}.png`, mimeType: 'image/png', sizeBytes: 100 },
  createdAt: iso(NOW - 60_000),
});

const REJECTED: Partial<OrderDetails> = {
  id: ID,
  status: 'REJECTED',
  rejectReasonCode: 'payment_not_received',
};

/** Serves the order, its chat (with `messages`) and the appeal's call answering `appeal`. */
function serve(
  fields: Partial<OrderDetails>,
  messages: ChatMessage[] = [],
  appeal: { status: number; json: unknown } = { status: 201, json: {} },
) {
  return serveOrder(
    fields,
    {},
    {
      routes: () => [
        {
          method: 'GET',
          path: `/api/orders/${ID}/chat`,
          reply: () => ({ json: { verificationCode: 'K7P3QX', messages } }),
        },
        { method: 'POST', path: `/api/orders/${ID}/appeal`, reply: () => appeal },
      ],
    },
  );
}

const opened = (fields: Partial<AppealView> = {}): AppealView => ({
  state: 'open',
  reason: 'rejected_wrongly',
  openedAt: iso(NOW - 60_000),
  decision: null,
  outcome: null,
  decidedAt: null,
  refundDetails: null,
  refundTxHash: null,
  ...fields,
});

describe('the appeal on the order screens', () => {
  it('a rejected order offers an appeal on its details', async () => {
    serve(REJECTED);
    renderApp(`/order/${ID}/details`, { language: 'en' });
    await settle();
    expect(screen.getByTestId('open-appeal').textContent).toBe('Open an appeal');
  });

  it('a paid order before its deadline offers none (APPEAL_TOO_EARLY); past it, it does', async () => {
    serve({ id: ID, status: 'RECEIPT_UPLOADED', expiresAt: iso(NOW + 60_000) });
    const first = renderApp(`/order/${ID}/details`, { language: 'en' });
    await settle();
    expect(screen.queryByTestId('open-appeal')).toBeNull();
    first.unmount();
    serve({ id: ID, status: 'RECEIPT_UPLOADED', expiresAt: iso(NOW - 60_000) });
    renderApp(`/order/${ID}/details`, { language: 'en' });
    await settle();
    expect(screen.getByTestId('open-appeal')).toBeTruthy();
  });

  it('an open appeal shows "under review" in Russian, and no offer', async () => {
    serve({ ...REJECTED, appeal: opened() });
    renderApp(`/order/${ID}/details`, { language: 'ru' });
    await settle();
    const note = screen.getByTestId('appeal-under-review').textContent;
    expect(note).toContain('На рассмотрении');
    // A rejected order has no deadline to hold: the note does not speak of one.
    expect(note).not.toContain('срок');
    expect(screen.queryByTestId('open-appeal')).toBeNull();
  });

  it('a decided appeal shows the decision’s wording and the senior operator’s words', async () => {
    const appeal = opened({
      state: 'decided',
      decision: 'refund',
      outcome: 'Returned to your card',
      decidedAt: iso(NOW),
    });
    serve({ ...REJECTED, appeal });
    renderApp(`/order/${ID}/details`, { language: 'en' });
    await settle();
    const note = screen.getByTestId('appeal-decided');
    expect(note.textContent).toContain('A senior operator decided to return your money');
    expect(screen.getByTestId('appeal-outcome').textContent).toBe(
      'From the senior operator: Returned to your card',
    );
  });
});

describe('the appeal screen', () => {
  it('sends nothing without a reason; then sends the reason, the words and the ticked file', async () => {
    const { api } = serve(REJECTED, [file(4), { ...file(6), attachment: null, text: 'hi' }]);
    renderApp(`/order/${ID}/appeal`, { language: 'en' });
    await settle();
    // Only messages with files are offered as evidence.
    expect(document.querySelectorAll('[data-message]').length).toBe(1);
    fireEvent.click(screen.getByTestId('appeal-submit'));
    await settle();
    expect(screen.getByTestId('appeal-reason-error').textContent).toBe('Choose a reason');
    expect(api.callsTo('POST', `/api/orders/${ID}/appeal`)).toHaveLength(0);
    fireEvent.click(screen.getByLabelText('The order was rejected wrongly'));
    fireEvent.change(screen.getByTestId('appeal-text'), { target: { value: 'I paid in time' } });
    fireEvent.click(screen.getByLabelText('receipt-4.png'));
    fireEvent.click(screen.getByTestId('appeal-submit'));
    await settle();
    expect(api.callsTo('POST', `/api/orders/${ID}/appeal`)[0]?.body).toEqual({
      reason: 'rejected_wrongly',
      text: 'I paid in time',
      evidence: [4],
    });
  });

  it('a refusal is said in the customer’s language (APPEAL_EXISTS, in Russian)', async () => {
    serve(REJECTED, [], {
      status: 409,
      json: { error: 'x', code: 'APPEAL_EXISTS' },
    });
    renderApp(`/order/${ID}/appeal`, { language: 'ru' });
    await settle();
    fireEvent.click(screen.getByLabelText('Другое'));
    fireEvent.click(screen.getByTestId('appeal-submit'));
    await settle();
    expect(screen.getByTestId('appeal-error').textContent).toContain(
      'По этому заказу уже есть апелляция.',
    );
  });
});

/** The first bytes of a PNG, as a real one starts (the picker reads the type from them). */
const PNG = Uint8Array.from('\x89PNG\r\n\x1a\nappeal-bytes', (c) => c.charCodeAt(0));

/** Picks a new PNG for the appeal, as the hidden file input hands it over. */
async function attach(name: string): Promise<void> {
  const picked = new File([PNG], name, { type: 'image/png' });
  fireEvent.change(screen.getByTestId('appeal-file-input'), { target: { files: [picked] } });
  await settle();
}

async function submit(): Promise<void> {
  fireEvent.click(screen.getByTestId('appeal-submit'));
  // A new file is read (jsdom's FileReader takes a few of its own turns, each a millisecond here),
  // sent to the chat, and then the appeal.
  for (let i = 0; i < 5; i++) await advance(1);
}

const CHAT_POSTS = `/api/orders/${ID}/chat`;

describe('the appeal form’s rules', () => {
  it('no reason: "Выберите причину" in Russian, re-said as "Choose a reason" when the language switches', async () => {
    const { api } = serve(REJECTED);
    renderApp(`/order/${ID}/appeal`, { language: 'ru' });
    await settle();
    await submit();
    expect(screen.getByTestId('appeal-reason-error').textContent).toBe('Выберите причину');
    fireEvent.click(screen.getByRole('button', { name: 'EN' }));
    await settle();
    expect(screen.getByTestId('appeal-reason-error').textContent).toBe('Choose a reason');
    expect(api.callsTo('POST', `/api/orders/${ID}/appeal`)).toHaveLength(0);
    // Choosing one takes the message away at once.
    fireEvent.click(screen.getByLabelText('Something else'));
    await settle();
    expect(screen.queryByTestId('appeal-reason-error')).toBeNull();
  });

  it(`at most ${APPEAL_EVIDENCE_MAX} files: a new one beyond ${APPEAL_EVIDENCE_MAX} ticked is refused before anything is sent; removing it sends them`, async () => {
    const files = Array.from({ length: APPEAL_EVIDENCE_MAX }, (_, i) => file(i + 1));
    const { api } = serve(REJECTED, files);
    renderApp(`/order/${ID}/appeal`, { language: 'en' });
    await settle();
    fireEvent.click(screen.getByLabelText('Something else'));
    for (const one of files) fireEvent.click(screen.getByLabelText(`receipt-${one.id}.png`));
    await attach('new.png');
    await submit();
    expect(screen.getByTestId('appeal-files-error').textContent).toBe(
      `Tick at most ${APPEAL_EVIDENCE_MAX} files`,
    );
    expect(api.callsTo('POST', CHAT_POSTS)).toHaveLength(0);
    expect(api.callsTo('POST', `/api/orders/${ID}/appeal`)).toHaveLength(0);

    fireEvent.click(screen.getByText('Remove the file'));
    await settle();
    expect(screen.queryByTestId('appeal-files-error')).toBeNull();
    await submit();
    expect(api.callsTo('POST', `/api/orders/${ID}/appeal`)[0]?.body).toEqual({
      reason: 'other',
      text: '',
      evidence: files.map((one) => one.id),
    });
  });

  it('words with a control character are refused under the field, in the customer’s language', async () => {
    const { api } = serve(REJECTED);
    renderApp(`/order/${ID}/appeal`, { language: 'en' });
    await settle();
    fireEvent.click(screen.getByLabelText('Something else'));
    fireEvent.change(screen.getByTestId('appeal-text'), { target: { value: 'paid\u0007' } });
    await submit();
    expect(screen.getByTestId('appeal-text-error').textContent).toBe(
      'This field contains characters that cannot be used: please retype it',
    );
    expect(api.callsTo('POST', `/api/orders/${ID}/appeal`)).toHaveLength(0);
  });

  it('a new file goes to the chat first and is named after the ticked one; sent again after a failure, it is not sent twice', async () => {
    let appeals = 0;
    const { api } = serve(REJECTED, [file(4)]);
    api.on('POST', `/api/orders/${ID}/appeal`, () =>
      ++appeals === 1
        ? { status: 500, json: { error: 'x', code: 'INTERNAL' } }
        : { status: 201, json: {} },
    );
    api.on('POST', CHAT_POSTS, () => ({ status: 201, json: { ...file(9), text: '' } }));
    renderApp(`/order/${ID}/appeal`, { language: 'en' });
    await settle();
    fireEvent.click(screen.getByLabelText('The order was rejected wrongly'));
    fireEvent.change(screen.getByTestId('appeal-text'), { target: { value: '  I paid in time ' } });
    fireEvent.click(screen.getByLabelText('receipt-4.png'));
    await attach('transfer.png');
    await submit();
    expect(screen.getByTestId('appeal-error')).toBeTruthy();
    await submit();
    expect(api.callsTo('POST', CHAT_POSTS)).toHaveLength(1);
    const sent = api.callsTo('POST', `/api/orders/${ID}/appeal`).map((call) => call.body);
    const body = { reason: 'rejected_wrongly', text: 'I paid in time', evidence: [4, 9] };
    expect(sent).toEqual([body, body]);
  });
});
