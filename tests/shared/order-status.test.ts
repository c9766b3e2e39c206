import { describe, expect, it } from 'vitest';
import {
  ACTIVE_STATUSES,
  CUSTOMER_CANCELLABLE,
  EXPIRABLE_STATUSES,
  FINAL_STATUSES,
  ORDER_STATUSES,
  STATUS_LABEL_KEYS,
  TRANSITIONS,
  canTransition,
  cancelReason,
  type OrderStatus,
} from '../../src/shared/order-status';

describe('statuses', () => {
  it('are exactly the fourteen', () => {
    expect([...ORDER_STATUSES].sort()).toEqual(
      [
        'WAITING_REQUISITES',
        'REQUISITES_READY',
        'PAYMENT_PENDING',
        'PAYMENT_STARTED',
        'RECEIPT_UPLOADED',
        'PAYMENT_CONFIRMED',
        'WAITING_CRYPTO',
        'TX_PENDING',
        'TX_CONFIRMED',
        'COMPLETED',
        'CANCELLED',
        'REJECTED',
        'OFFICE_PENDING',
        'OFFICE_READY',
      ].sort(),
    );
  });

  it('split into final (COMPLETED, CANCELLED, REJECTED) and active (all others)', () => {
    expect([...FINAL_STATUSES].sort()).toEqual(['CANCELLED', 'COMPLETED', 'REJECTED']);
    expect(ACTIVE_STATUSES).toHaveLength(11);
    expect(ACTIVE_STATUSES.some((s) => FINAL_STATUSES.includes(s))).toBe(false);
  });

  it('each have a display label of the dictionary', () => {
    expect(Object.keys(STATUS_LABEL_KEYS).sort()).toEqual([...ORDER_STATUSES].sort());
  });
});

describe('the transition table', () => {
  it('lets the customer cancel only before money moved', () => {
    expect([...CUSTOMER_CANCELLABLE].sort()).toEqual(
      [
        'WAITING_REQUISITES',
        'REQUISITES_READY',
        'OFFICE_PENDING',
        'OFFICE_READY',
        'WAITING_CRYPTO',
      ].sort(),
    );
    for (const status of ORDER_STATUSES) {
      expect(canTransition('cancel', 'customer', status)).toBe(
        CUSTOMER_CANCELLABLE.includes(status),
      );
    }
  });

  it('lets an operator reject from any non-final status and from no final one', () => {
    for (const status of ORDER_STATUSES) {
      expect(canTransition('reject', 'operator', status)).toBe(!FINAL_STATUSES.includes(status));
    }
  });

  it('expires only orders waiting on a deadline, never one the customer already paid', () => {
    expect([...EXPIRABLE_STATUSES].sort()).toEqual([
      'OFFICE_PENDING',
      'OFFICE_READY',
      'REQUISITES_READY',
      'WAITING_CRYPTO',
      'WAITING_REQUISITES',
    ]);
    for (const paid of ['PAYMENT_PENDING', 'RECEIPT_UPLOADED', 'TX_PENDING'] as const) {
      expect(canTransition('expire', 'system', paid)).toBe(false);
    }
  });

  it('a cancellation says why, judged by the server clock: the customer, an expired deadline, no operator', () => {
    const deadline = 1_000_000;
    expect(cancelReason('REQUISITES_READY', deadline, deadline - 1)).toBe('customer');
    expect(cancelReason('REQUISITES_READY', deadline, deadline)).toBe('expired');
    expect(cancelReason('WAITING_CRYPTO', deadline, deadline + 1)).toBe('expired');
    expect(cancelReason('WAITING_REQUISITES', deadline, deadline)).toBe('no_operator');
    expect(cancelReason('OFFICE_PENDING', deadline, deadline)).toBe('no_operator');
    expect(cancelReason('WAITING_REQUISITES', null, deadline)).toBe('customer');
  });

  it.each([
    [
      'P2P buy',
      [
        'WAITING_REQUISITES',
        'REQUISITES_READY',
        'PAYMENT_PENDING',
        'RECEIPT_UPLOADED',
        'PAYMENT_CONFIRMED',
        'COMPLETED',
      ],
    ],
    ['office buy', ['OFFICE_PENDING', 'OFFICE_READY', 'COMPLETED']],
    ['P2P sell', ['WAITING_CRYPTO', 'TX_PENDING', 'TX_CONFIRMED', 'COMPLETED']],
  ] as const)('allows every step of the %s path', (_name, path) => {
    for (let i = 1; i < path.length; i++) {
      const from = path[i - 1] as OrderStatus;
      const to = path[i] as OrderStatus;
      const step = TRANSITIONS.find((t) => t.to === to && t.from.includes(from));
      expect(step, `${from} → ${to}`).toBeDefined();
    }
  });

  it('never leaves a final status', () => {
    for (const t of TRANSITIONS) {
      expect(t.from.some((s) => FINAL_STATUSES.includes(s))).toBe(false);
    }
  });

  it('refuses an action to the wrong actor (a customer cannot complete an order)', () => {
    expect(canTransition('complete', 'customer', 'PAYMENT_CONFIRMED')).toBe(false);
    expect(canTransition('complete', 'operator', 'PAYMENT_CONFIRMED')).toBe(true);
  });
});
