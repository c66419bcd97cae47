import { describe, expect, it } from 'vitest';

import { describeSubscriptionStatus } from '@portfolio/types/subscription';

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
    ['paused', 'paused', 'gray'],
    ['constructor', 'constructor', 'gray'],
    [null, 'Unknown', 'gray'],
    ['', 'Unknown', 'gray'],
  ])('shows %s as %s in %s', (status, label, tone) => {
    expect(describeSubscriptionStatus(status)).toEqual({ label, tone });
  });
});
