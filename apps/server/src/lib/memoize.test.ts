import { describe, expect, it, vi } from 'vitest';

import { memoizeBounded } from './memoize.js';

describe('memoizeBounded', () => {
  it('computes each input once while it is remembered, and forgets the oldest past the bound', () => {
    const fn = vi.fn((input: string) => input.toUpperCase());
    const cached = memoizeBounded(fn, 2);
    expect(cached('a')).toBe('A');
    expect(cached('a')).toBe('A');
    expect(fn).toHaveBeenCalledTimes(1);
    cached('b');
    cached('c'); // drops 'a'
    expect(cached('a')).toBe('A');
    expect(fn).toHaveBeenCalledTimes(4);
  });
});
