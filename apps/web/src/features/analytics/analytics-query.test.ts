import { AnalyticsQuery } from '@portfolio/types/analytics';
import { describe, expect, it } from 'vitest';

import {
  customRangeError,
  readAnalyticsState,
  toQueryString,
  withCustomRange,
  withFilter,
  withoutFilter,
  withPeriod,
} from './analytics-query';

describe('analytics URL state', () => {
  it('defaults to the last 30 days without filters', () => {
    expect(readAnalyticsState('')).toEqual({
      state: { period: '30d', filters: [] },
      ignored: [],
    });
    expect(toQueryString(readAnalyticsState('').state)).toBe('period=30d');
  });

  it('reads a period and filters in the order they appear', () => {
    const { state, ignored } = readAnalyticsState('period=7d&country=DE&page=%2Fgames');
    expect(ignored).toEqual([]);
    expect(state).toEqual({
      period: '7d',
      filters: [
        { dimension: 'country', value: 'DE' },
        { dimension: 'page', value: '/games' },
      ],
    });
  });

  it('writes the same query string the API parses', () => {
    const state = withFilter(
      withFilter(
        withCustomRange(readAnalyticsState('').state, '2026-01-01', '2026-01-31'),
        'utm_source',
        'news letter',
      ),
      'referrer',
      'example.com',
    );
    const query = toQueryString(state);
    expect(query).toBe(
      'period=custom&from=2026-01-01&to=2026-01-31&utm_source=news+letter&referrer=example.com',
    );
    const parsed = AnalyticsQuery.parse(Object.fromEntries(new URLSearchParams(query)));
    expect(parsed).toMatchObject({
      period: 'custom',
      from: '2026-01-01',
      to: '2026-01-31',
      utm_source: 'news letter',
      referrer: 'example.com',
    });
  });

  it('round-trips values with characters that need escaping', () => {
    const state = withFilter(readAnalyticsState('').state, 'page', '/Tutorials?x=1&y=2#top');
    expect(readAnalyticsState(toQueryString(state)).state).toEqual(state);
  });

  it('replaces a filter on the same dimension instead of adding a second one', () => {
    const first = withFilter(readAnalyticsState('period=today').state, 'country', 'DE');
    const second = withFilter(first, 'country', 'FR');
    expect(second.filters).toEqual([{ dimension: 'country', value: 'FR' }]);
    expect(toQueryString(second)).toBe('period=today&country=FR');
  });

  it('removes one filter and keeps the others and the period', () => {
    const state = readAnalyticsState('period=12mo&country=DE&browser=Firefox').state;
    expect(toQueryString(withoutFilter(state, 'country'))).toBe('period=12mo&browser=Firefox');
  });

  it('keeps the filters when the period changes, and drops a custom range', () => {
    const state = readAnalyticsState('period=custom&from=2026-01-01&to=2026-01-02&os=Linux').state;
    expect(toQueryString(withPeriod(state, 'today'))).toBe('period=today&os=Linux');
  });

  it('ignores what the API would refuse, and says so', () => {
    const { state, ignored } = readAnalyticsState(
      `period=forever&colour=red&country=DE&country=FR&page=${'x'.repeat(600)}`,
    );
    expect(state).toEqual({ period: '30d', filters: [{ dimension: 'country', value: 'DE' }] });
    expect(ignored).toHaveLength(4);
    expect(ignored).toContain('period=forever');
    expect(ignored).toContain('colour');
    expect(ignored).toContain('country=FR');
  });

  it('falls back to the default period for a custom range that is missing or reversed', () => {
    for (const search of [
      'period=custom',
      'period=custom&from=2026-02-01',
      'period=custom&from=2026-02-10&to=2026-02-01',
      'period=custom&from=yesterday&to=2026-02-01',
    ]) {
      const { state, ignored } = readAnalyticsState(search);
      expect(state.period).toBe('30d');
      expect(ignored).toHaveLength(1);
    }
  });

  it('drops from and to outside a custom period', () => {
    const { state } = readAnalyticsState('period=7d&from=2026-01-01&to=2026-01-02');
    expect(toQueryString(state)).toBe('period=7d');
  });
});

describe('customRangeError', () => {
  it('accepts a range within a year', () => {
    expect(customRangeError('2026-01-01', '2026-12-31')).toBeNull();
    expect(customRangeError('2026-03-05', '2026-03-05')).toBeNull();
  });

  it('explains what is wrong with a range', () => {
    expect(customRangeError('', '2026-01-01')).toBe('Choose both a start and an end date.');
    expect(customRangeError('2026-02-01', '2026-01-01')).toBe(
      'The end date must not be before the start date.',
    );
    expect(customRangeError('2024-01-01', '2026-01-01')).toBe(
      'A custom range may span at most 366 days.',
    );
  });
});
