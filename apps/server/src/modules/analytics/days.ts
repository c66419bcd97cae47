/** Days in UTC, as both analytics systems (the dashboard's and the site's) count them. */

/** A day in UTC as PostgreSQL's `date` prints it. */
export type Day = string;

export const DAY_MS = 24 * 60 * 60 * 1000;

/** The last day dayOf named and where it starts: every heartbeat asks for today. */
let lastDay: Day = '';
let lastDayStart = Number.NaN;

/** The UTC day of an epoch-milliseconds time. */
export function dayOf(time: number): Day {
  const offset = time - lastDayStart;
  if (offset >= 0 && offset < DAY_MS) {
    return lastDay;
  }
  const day = new Date(time).toISOString().slice(0, 10);
  // a time that Date cannot hold threw above; dates before 1970 are days all the same
  lastDayStart = time - (((time % DAY_MS) + DAY_MS) % DAY_MS);
  lastDay = day;
  return day;
}

/** `day` moved by `days` (negative for earlier). */
export const addDays = (day: Day, days: number): Day =>
  dayOf(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);
