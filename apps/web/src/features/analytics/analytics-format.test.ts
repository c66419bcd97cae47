import { describe, expect, it } from 'vitest';

import { countryName, describeChange, formatSeconds } from './analytics-format';

describe('analytics formatting', () => {
  it('describes the change from the previous period', () => {
    expect(describeChange(120, 100)).toEqual({ text: '+20%', direction: 'up' });
    expect(describeChange(50, 100)).toEqual({ text: '−50%', direction: 'down' });
    expect(describeChange(5, 0)).toEqual({ text: 'new', direction: 'up' });
    expect(describeChange(0, 0)).toEqual({ text: '0%', direction: 'flat' });
  });

  it('writes durations as seconds, minutes or hours', () => {
    expect(formatSeconds(42.4)).toBe('42s');
    expect(formatSeconds(185)).toBe('3m 05s');
    expect(formatSeconds(7800)).toBe('2h 10m');
  });

  it('names countries by their code and leaves other values alone', () => {
    expect(countryName('DE')).toBe('Germany');
    expect(countryName('(unknown)')).toBe('(unknown)');
  });
});
