import { describe, expect, it } from 'vitest';

import { dayKey, formatAverage, formatLocalTime, gameTitle } from './dashboard-format';
import { niceMax } from './visitors-chart';

describe('dashboard formatting', () => {
  it('rounds averages to one decimal', () => {
    expect(formatAverage(12.345)).toBe('12.3');
    expect(formatAverage(8)).toBe('8.0');
    expect(formatAverage(Number.NaN)).toBe('0.0');
  });

  it('keeps the calendar day of a date or timestamp', () => {
    expect(dayKey('2025-03-07')).toBe('2025-03-07');
    expect(dayKey('2025-03-07T23:30:00.000Z')).toBe('2025-03-07');
    expect(dayKey('yesterday')).toBe('yesterday');
  });

  it('shows an unparseable last-seen value as sent', () => {
    expect(formatLocalTime('soon')).toBe('soon');
  });

  it('titles games from the catalogue, else by id', () => {
    expect(gameTitle('RocketGame')).toBe('Rocket Game');
    expect(gameTitle('Unknown-1')).toBe('Unknown-1');
  });

  it('rounds the chart axis up to 1, 2 or 5 times a power of ten', () => {
    expect(niceMax(0)).toBe(1);
    expect(niceMax(7)).toBe(10);
    expect(niceMax(13)).toBe(20);
    expect(niceMax(41)).toBe(50);
    expect(niceMax(100)).toBe(100);
  });
});
