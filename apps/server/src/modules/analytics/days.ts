/** Days in UTC, as both analytics systems (the dashboard's and the site's) count them. */

/** A day in UTC as PostgreSQL's `date` prints it. */
export type Day = string;

export const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC day of an epoch-milliseconds time. */
export const dayOf = (time: number): Day => new Date(time).toISOString().slice(0, 10);

/** `day` moved by `days` (negative for earlier). */
export const addDays = (day: Day, days: number): Day =>
  dayOf(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);
