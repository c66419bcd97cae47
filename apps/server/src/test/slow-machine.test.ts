import { describe, expect, it } from 'vitest';

import { slowMachineFactor } from './slow-machine.js';

describe('slowMachineFactor', () => {
  it('follows the load per core, never below 1', () => {
    expect(slowMachineFactor({}, 10, 2)).toBe(5);
    expect(slowMachineFactor({}, 3, 2)).toBe(1.5);
    expect(slowMachineFactor({}, 0.4, 2)).toBe(1);
    expect(slowMachineFactor({}, 7, 0)).toBe(7);
  });

  it('takes TEST_TIME_FACTOR when it is set, and refuses one below 1 or not a number', () => {
    expect(slowMachineFactor({ TEST_TIME_FACTOR: '4' }, 0, 2)).toBe(4);
    expect(slowMachineFactor({ TEST_TIME_FACTOR: '1' }, 20, 2)).toBe(1);
    expect(slowMachineFactor({ TEST_TIME_FACTOR: '' }, 6, 2)).toBe(3);
    expect(() => slowMachineFactor({ TEST_TIME_FACTOR: '0.5' }, 0, 2)).toThrow(
      "TEST_TIME_FACTOR must be a number of at least 1, not '0.5'",
    );
    expect(() => slowMachineFactor({ TEST_TIME_FACTOR: 'slow' }, 0, 2)).toThrow(
      "TEST_TIME_FACTOR must be a number of at least 1, not 'slow'",
    );
  });
});
