/**
 * The support link of an order: the configured t.me link with the customer's first
 * line, "Order #<first 8 characters of the id>: " in their language, prefilled as `?text=`.
 */
import { describe, expect, it } from 'vitest';
import { orderNumber, orderSupportLink, supportChatLink } from '../../src/shared/support-link';

const ID = '1a2b3c4d-5e6f-7081-92a3-b4c5d6e7f809';

describe('the support link of an order', () => {
  it('is <supportUrl>?text=<encoded "Order #<first 8 characters>: ">', () => {
    expect(orderSupportLink('https://t.me/exchange_support', ID, (n) => `Order #${n}: `)).toBe(
      'https://t.me/exchange_support?text=Order%20%231a2b3c4d%3A%20',
    );
  });

  it('carries the Russian first line percent-encoded as UTF-8', () => {
    const link = orderSupportLink('https://t.me/exchange_support', ID, (n) => `Заказ №${n}: `);
    expect(link).toBe(
      'https://t.me/exchange_support?text=%D0%97%D0%B0%D0%BA%D0%B0%D0%B7%20%E2%84%961a2b3c4d%3A%20',
    );
    expect(decodeURIComponent(new URL(link).search.slice('?text='.length))).toBe(
      'Заказ №1a2b3c4d: ',
    );
  });

  it('the order number is the first 8 characters of the id', () => {
    expect(orderNumber(ID)).toBe('1a2b3c4d');
    expect(orderNumber('short')).toBe('short');
  });

  it('keeps a query the link already has and replaces a text it already has', () => {
    expect(supportChatLink('https://t.me/exchange_support?start=x', 'a b')).toBe(
      'https://t.me/exchange_support?start=x&text=a%20b',
    );
    expect(supportChatLink('https://t.me/exchange_support?text=old', 'new')).toBe(
      'https://t.me/exchange_support?text=new',
    );
  });

  it('encodes characters that would end the text early (&, #, +, ?)', () => {
    expect(supportChatLink('https://t.me/s', 'a&b#c+d?e')).toBe(
      'https://t.me/s?text=a%26b%23c%2Bd%3Fe',
    );
  });
});
