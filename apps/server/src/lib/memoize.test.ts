import { describe, expect, it, vi } from 'vitest';

import { memoizeBounded, setBounded } from './memoize.js';

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

describe('setBounded', () => {
  it('keeps at most the bound, dropping the oldest, and moves a key set again to the newest place', () => {
    const map = new Map<string, number>();
    setBounded(map, 'a', 1, 2);
    setBounded(map, 'b', 2, 2);
    setBounded(map, 'a', 3, 2); // 'a' is now the newest
    setBounded(map, 'c', 4, 2); // drops 'b'
    expect([...map]).toEqual([
      ['a', 3],
      ['c', 4],
    ]);
  });
});
