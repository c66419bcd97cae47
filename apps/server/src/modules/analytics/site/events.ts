/** The site analytics' events: their kinds, their row, and the columns filters narrow by. */
import type { Day } from '../days.js';

export const EVENT_KIND = { view: 1, leave: 2, bot: 3, play: 4, locked: 5 } as const;

/** One row of analytics_events (see the migration). */
export interface EventRow {
  day: Day;
  /** ISO date-time. */
  at: string;
  kind: number;
  /** The visitor hash as a signed 64-bit integer in decimal. */
  visitor: string;
  path: string;
  entry_path: string;
  is_entry: boolean;
  referrer: string;
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  country: string;
  device: string;
  browser: string;
  os: string;
  seconds: number;
  is_exit: boolean;
  is_bounce: boolean;
  game: string;
}

/** The events column each filter narrows by, keyed as analytics_daily.filter stores it. An exit
 * filter narrows as a page filter does (a view is not known to be an exit until it ends), so it
 * has no rows of its own. */
export const FILTER_COLUMNS = {
  page: 'path',
  entry: 'entry_path',
  referrer: 'referrer',
  utm_source: 'utm_source',
  utm_medium: 'utm_medium',
  utm_campaign: 'utm_campaign',
  country: 'country',
  device: 'device',
  browser: 'browser',
  os: 'os',
} as const;
export type FilterKey = keyof typeof FILTER_COLUMNS;

/** An event as the rollups read it: every column but its day and time (EVENT_KIND for kind). */
export type DayEvent = Omit<EventRow, 'day' | 'at'>;
