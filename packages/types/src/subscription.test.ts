import { describe, expect, it } from 'vitest';

import {
  CreateSubscriptionRequest,
  SUBSCRIPTION_STATUSES,
  describeSubscriptionStatus,
  isSubscriptionStatus,
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

  it('shows any other status as it is, and none at all as Unknown, in gray', () => {
    expect(describeSubscriptionStatus('paused')).toEqual({ label: 'paused', tone: 'gray' });
    // a name an object prototype has must not pick up a label from it
    expect(describeSubscriptionStatus('constructor')).toEqual({
      label: 'constructor',
      tone: 'gray',
    });
    expect(describeSubscriptionStatus(null)).toEqual({ label: 'Unknown', tone: 'gray' });
    expect(describeSubscriptionStatus(undefined)).toEqual({ label: 'Unknown', tone: 'gray' });
    expect(describeSubscriptionStatus('')).toEqual({ label: 'Unknown', tone: 'gray' });
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
