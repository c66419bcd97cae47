import type { AnalyticsQuery, AnalyticsRange } from '@portfolio/types/analytics';

import { badRequest } from '../../../../lib/errors.js';
import { addDays, type Day, DAY_MS, dayOf } from '../../days.js';

/** The longest custom period, in days. */
export const MAX_PERIOD_DAYS = 366;

const daysBetween = (from: Day, to: Day) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
const addMonths = (day: Day, months: number): Day => {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + months);
  return dayOf(date.getTime());
};
export const monthStart = (day: Day): Day => `${day.slice(0, 7)}-01`;

/** The period a query asks for and the one before it (same length, just before). */
export function resolveRange(
  query: AnalyticsQuery,
  today: Day,
): { range: AnalyticsRange; previousRange: AnalyticsRange } {
  switch (query.period) {
    case 'today':
      return {
        range: { from: today, to: today, granularity: 'hour' },
        previousRange: {
          from: addDays(today, -1),
          to: addDays(today, -1),
          granularity: 'hour',
        },
      };
    case '7d':
    case '30d': {
      const days = query.period === '7d' ? 7 : 30;
      const from = addDays(today, -(days - 1));
      return {
        range: { from, to: today, granularity: 'day' },
        previousRange: { from: addDays(from, -days), to: addDays(from, -1), granularity: 'day' },
      };
    }
    case '12mo': {
      const from = addMonths(monthStart(today), -11);
      return {
        range: { from, to: today, granularity: 'month' },
        previousRange: { from: addMonths(from, -12), to: addDays(from, -1), granularity: 'month' },
      };
    }
    case 'custom': {
      const from = query.from ?? today;
      const to = query.to ?? today;
      const days = daysBetween(from, to);
      if (days > MAX_PERIOD_DAYS) {
        throw badRequest(`to: a custom period is at most ${MAX_PERIOD_DAYS} days`);
      }
      const granularity = days === 1 ? 'hour' : days <= 92 ? 'day' : 'month';
      return {
        range: { from, to, granularity },
        previousRange: { from: addDays(from, -days), to: addDays(from, -1), granularity },
      };
    }
  }
}

/** The start of every bucket of a range, as the series reports it. */
export function bucketsOf(range: AnalyticsRange): string[] {
  const buckets: string[] = [];
  if (range.granularity === 'hour') {
    for (let day = range.from; day <= range.to; day = addDays(day, 1)) {
      for (let hour = 0; hour < 24; hour++) {
        buckets.push(`${day}T${String(hour).padStart(2, '0')}:00:00.000Z`);
      }
    }
  } else if (range.granularity === 'day') {
    for (let day = range.from; day <= range.to; day = addDays(day, 1)) {
      buckets.push(day);
    }
  } else {
    for (let month = monthStart(range.from); month <= range.to; month = addMonths(month, 1)) {
      buckets.push(month);
    }
  }
  return buckets;
}
