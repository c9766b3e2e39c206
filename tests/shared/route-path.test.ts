/** A path is written once: the server routes its pattern, the client fills it, each value escaped. */
import { describe, expect, it } from 'vitest';
import { API_PATHS } from '../../src/shared/api';
import { OPERATOR_PATHS } from '../../src/shared/operator-api';
import { routePath } from '../../src/shared/route-path';

describe('routePath', () => {
  it('keeps the pattern the router reads, parameters as :name', () => {
    expect(API_PATHS.cancel.pattern).toBe('/api/orders/:id/cancel');
    expect(OPERATOR_PATHS.receipt.pattern).toBe('/api/operator/orders/:id/receipts/:receiptId');
  });

  it('fills each parameter in order, escaped, so a value cannot change the path', () => {
    expect(API_PATHS.chatAttachment('a/b?c', 7)).toBe('/api/orders/a%2Fb%3Fc/chat/7/attachment');
    expect(API_PATHS.savedItem('cards', 12)).toBe('/api/saved-details/cards/12');
    expect(routePath('/api/cities/:currencyCode')('RUB')).toBe('/api/cities/RUB');
  });

  it('every filled path is matched by its own pattern', () => {
    const tables = [API_PATHS, OPERATOR_PATHS] as const;
    for (const table of tables) {
      for (const entry of Object.values(table)) {
        if (typeof entry === 'string') continue;
        const route = entry as unknown as { pattern: string } & ((...v: string[]) => string);
        const count = route.pattern.split(':').length - 1;
        const filled = route(...Array.from({ length: count }, (_, i) => `v${i}`));
        const matcher = new RegExp(`^${route.pattern.replace(/:[A-Za-z]+/g, '[^/]+')}$`);
        expect(filled).toMatch(matcher);
        expect(filled).not.toContain(':');
      }
    }
  });
});
