import { describe, expect, it } from 'vitest';

import { describeMove, moveItem } from './reorder';

describe('moveItem', () => {
  it('moves an item up, down and to either end, never past them', () => {
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveItem(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 2, 9)).toEqual(['a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 5, 0)).toEqual(['a', 'b', 'c']);
  });

  it('says where the item went, counting from 1', () => {
    expect(describeMove('ProjectX', 1, 4)).toBe('Moved ProjectX to position 1 of 4.');
  });
});
