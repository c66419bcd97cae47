import { describe, expect, it } from 'vitest';

import {
  CreateSubscriptionRequest,
  SUBSCRIPTION_STATUSES,
  describeSubscriptionStatus,
  isSubscriptionStatus,
  viewSubscription,
} from './subscription.js';

describe('describeSubscriptionStatus (spec section 4)', () => {
  it.each([
    ['incomplete', 'Pending', 'orange'],
    ['pending', 'Pending', 'orange'],
    ['incomplete_expired', 'Inactive', 'red'],
    ['trialing', 'Active', 'green'],
    ['active', 'Active', 'green'],
    ['past_due', 'Past Due', 'red'],
    ['canceled', 'Canceled', 'gray'],
    ['unpaid', 'Unpaid', 'red'],
  ])('shows %s as %s (%s)', (status, label, tone) => {
    expect(describeSubscriptionStatus(status)).toEqual({ label, tone });
  });

  it('shows any other status as it is, and none at all as None, in gray', () => {
    expect(describeSubscriptionStatus('paused')).toEqual({ label: 'paused', tone: 'gray' });
    // a name an object prototype has must not pick up a label from it
    expect(describeSubscriptionStatus('constructor')).toEqual({
      label: 'constructor',
      tone: 'gray',
    });
    expect(describeSubscriptionStatus(null)).toEqual({ label: 'None', tone: 'gray' });
    expect(describeSubscriptionStatus(undefined)).toEqual({ label: 'None', tone: 'gray' });
    expect(describeSubscriptionStatus('')).toEqual({ label: 'None', tone: 'gray' });
  });
});

describe('viewSubscription', () => {
  const grant = { granted_at: '2026-01-02T00:00:00.000Z', ends_at: null };

  it("shows an admin's grant as active from the day it was granted, with no end", () => {
    expect(viewSubscription({ status: null, startDate: null, endDate: null, grant })).toEqual({
      status: 'active',
      startDate: '2026-01-02T00:00:00.000Z',
      endDate: null,
      isGrantedByAdmin: true,
    });
  });

  it('shows the grant over a Stripe subscription that ended, and the end date the admin set', () => {
    expect(
      viewSubscription({
        status: 'canceled',
        startDate: '2025-01-01T00:00:00.000Z',
        endDate: '2025-04-01T00:00:00.000Z',
        grant: { ...grant, ends_at: '2026-06-30T00:00:00.000Z' },
      }),
    ).toMatchObject({
      status: 'active',
      endDate: '2026-06-30T00:00:00.000Z',
      isGrantedByAdmin: true,
    });
  });

  it("shows Stripe's subscription while the user holds one, and nothing invented without a grant", () => {
    const paid = {
      status: 'active',
      startDate: '2025-01-01T00:00:00.000Z',
      endDate: '2025-04-01T00:00:00.000Z',
    };
    expect(viewSubscription({ ...paid, grant })).toEqual({ ...paid, isGrantedByAdmin: false });
    expect(viewSubscription({ status: null, startDate: null, endDate: null, grant: null })).toEqual(
      {
        status: null,
        startDate: null,
        endDate: null,
        isGrantedByAdmin: false,
      },
    );
  });
});

describe('CreateSubscriptionRequest', () => {
  it('takes a payment method id and defaults cancelAtPeriodEnd to false', () => {
    expect(CreateSubscriptionRequest.parse({ paymentMethodId: 'pm_1AbC' })).toEqual({
      paymentMethodId: 'pm_1AbC',
      cancelAtPeriodEnd: false,
    });
  });

  it('refuses anything that is not a payment method id', () => {
    for (const paymentMethodId of ['', 'tok_visa', 'pm_', 'pm_x y', 'pm_' + 'a'.repeat(300)]) {
      expect(
        CreateSubscriptionRequest.safeParse({ paymentMethodId }).success,
        paymentMethodId,
      ).toBe(false);
    }
    expect(
      CreateSubscriptionRequest.safeParse({ paymentMethodId: 'pm_1', cancelAtPeriodEnd: 'no' })
        .success,
    ).toBe(false);
  });
});

it('knows every status Stripe sends', () => {
  expect(SUBSCRIPTION_STATUSES.every(isSubscriptionStatus)).toBe(true);
  expect(isSubscriptionStatus('pending')).toBe(false);
});
