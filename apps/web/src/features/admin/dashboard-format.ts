import { findGame } from '@portfolio/types';

/** A daily average with one decimal, e.g. 12.0 or 3.5. */
export function formatAverage(value: number): string {
  return Number.isFinite(value) ? value.toFixed(1) : '0.0';
}

/** A timestamp as the local time of day, or the raw text when it is not a date. */
export function formatLocalTime(timestamp: string): string {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? timestamp : date.toLocaleTimeString();
}

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})/;

/** The YYYY-MM-DD part of a day key (the server may send a full ISO timestamp). */
export function dayKey(date: string): string {
  const match = DAY_PATTERN.exec(date);
  return match ? `${match[1]}-${match[2]}-${match[3]}` : date;
}

/** A short axis label for a day, e.g. 'Mar 7'; calendar days carry no time zone. */
export function formatShortDay(date: string): string {
  const match = DAY_PATTERN.exec(date);
  if (!match) {
    return date;
  }
  const day = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return day.toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/**
 * A game's title: from the built-in catalogue (the spec's rule), else from the database
 * catalogue (a game the owner added), else its id as the server sent it.
 */
export function gameTitle(
  gameId: string,
  catalogueTitles: ReadonlyMap<string, string> = new Map(),
): string {
  return findGame(gameId)?.title ?? catalogueTitles.get(gameId) ?? gameId;
}
