import { describe, expect, it } from 'vitest';

import { dayKey, formatAverage, formatLocalTime, gameTitle } from './dashboard-format';

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
});
