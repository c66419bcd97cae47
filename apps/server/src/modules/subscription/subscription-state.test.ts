import { describe, expect, it } from 'vitest';

import {
  type IncomingSubscription,
  isGrantActive,
  roleAfterStatus,
  shouldApply,
} from './subscription-state.js';

const at = (seconds: number) => new Date(seconds * 1000);
const incoming = (
  status: string,
  seconds: number,
  subscriptionId = 'sub_a',
): IncomingSubscription => ({
  subscriptionId,
  customerId: 'cus_1',
  userIdHint: undefined,
  status,
  startDate: null,
  endDate: null,
  cancelAtPeriodEnd: false,
  asOf: at(seconds),
});

describe('roleAfterStatus', () => {
  it('grants subscriber for active and trialing, takes it away when payment stops', () => {
    expect(roleAfterStatus('user', 'active')).toBe('subscriber');
    expect(roleAfterStatus('user', 'trialing')).toBe('subscriber');
    for (const status of ['canceled', 'unpaid', 'incomplete_expired', 'paused']) {
      expect(roleAfterStatus('subscriber', status), status).toBe('user');
    }
  });

  it('leaves the role alone while incomplete or past due, and an admin always admin', () => {
    expect(roleAfterStatus('user', 'incomplete')).toBe('user');
    expect(roleAfterStatus('subscriber', 'past_due')).toBe('subscriber');
    expect(roleAfterStatus('admin', 'canceled')).toBe('admin');
    expect(roleAfterStatus('admin', 'active')).toBe('admin');
  });

  it("keeps an admin's grant whatever Stripe says", () => {
    for (const status of ['canceled', 'unpaid', 'incomplete_expired', 'paused', 'active']) {
      expect(roleAfterStatus('subscriber', status, true), status).toBe('subscriber');
    }
  });
});

describe('isGrantActive', () => {
  const now = at(1_000);
  it('holds from the grant on, until its end when it has one', () => {
    expect(isGrantActive({ grantedAt: at(10), endsAt: null }, now)).toBe(true);
    expect(isGrantActive({ grantedAt: at(10), endsAt: at(2_000) }, now)).toBe(true);
    expect(isGrantActive({ grantedAt: at(10), endsAt: at(1_000) }, now)).toBe(false);
    expect(isGrantActive({ grantedAt: null, endsAt: null }, now)).toBe(false);
  });
});

describe('shouldApply', () => {
  const stored = (status: string, seconds: number, subscriptionId = 'sub_a') => ({
    subscriptionId,
    status,
    stateAt: at(seconds),
  });

  it('takes anything when nothing is stored', () => {
    expect(
      shouldApply({ subscriptionId: null, status: null, stateAt: null }, incoming('incomplete', 1)),
    ).toBe(true);
  });

  it('takes only newer states of the stored subscription', () => {
    expect(shouldApply(stored('active', 10), incoming('past_due', 11))).toBe(true);
    expect(shouldApply(stored('canceled', 10), incoming('active', 9))).toBe(false);
  });

  it('breaks a same-second tie in favour of the state further along', () => {
    expect(shouldApply(stored('active', 10), incoming('incomplete', 10))).toBe(false);
    expect(shouldApply(stored('incomplete', 10), incoming('active', 10))).toBe(true);
    expect(shouldApply(stored('active', 10), incoming('active', 10))).toBe(true);
  });

  it('lets a new subscription replace one that is no longer held, never an older one', () => {
    expect(shouldApply(stored('canceled', 10), incoming('incomplete', 20, 'sub_b'))).toBe(true);
    expect(shouldApply(stored('incomplete', 10), incoming('active', 20, 'sub_b'))).toBe(true);
    // late news of an abandoned subscription does not replace the one the user pays for
    expect(shouldApply(stored('active', 10), incoming('incomplete_expired', 20, 'sub_b'))).toBe(
      false,
    );
    expect(shouldApply(stored('canceled', 10), incoming('active', 5, 'sub_b'))).toBe(false);
  });
});
