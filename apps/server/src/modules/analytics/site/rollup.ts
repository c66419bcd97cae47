/**
 * One day's rollups, computed in memory from the day's events in one read. The rows hold the
 * day's figures unfiltered (filter '') and again under each value of each filter, so a view
 * narrowed by one filter reads rollups as an unfiltered one does. Measured at 37,000 events a
 * day this is faster than the same sums in SQL (130 grouped scans of the partition, each sorting
 * it for its distinct visitors), and it yields to the event loop between filters.
 */
import { type DayEvent, FILTER_COLUMNS, type FilterKey } from './events.js';

/** One row of analytics_daily, without its day. */
export interface RollupRow {
  filter: string;
  filter_value: string;
  dimension: string;
  value: string;
  visitors: number;
  pageviews: number;
  visits: number;
  bounces: number;
  seconds: number;
  timed: number;
  bots: number;
}

/** The breakdowns a page view counts in, by the column holding their value. */
const VIEW_DIMENSIONS = [
  ['entry', 'entry_path'],
  ['referrer', 'referrer'],
  ['utm_source', 'utm_source'],
  ['utm_medium', 'utm_medium'],
  ['utm_campaign', 'utm_campaign'],
  ['country', 'country'],
  ['device', 'device'],
  ['browser', 'browser'],
  ['os', 'os'],
] as const satisfies ReadonlyArray<readonly [string, keyof DayEvent]>;

interface Sums {
  visitors: number;
  /** The last visitor counted: events come sorted by visitor, so a new one is a change. */
  last: string | undefined;
  pageviews: number;
  visits: number;
  bounces: number;
  seconds: number;
  timed: number;
}

/** The sums of one filter value: per dimension, per value. */
type Groups = Map<string, Map<string, Sums>>;

function sumsOf(groups: Groups, dimension: string, value: string): Sums {
  let byValue = groups.get(dimension);
  if (!byValue) {
    byValue = new Map();
    groups.set(dimension, byValue);
  }
  let sums = byValue.get(value);
  if (!sums) {
    sums = {
      visitors: 0,
      last: undefined,
      pageviews: 0,
      visits: 0,
      bounces: 0,
      seconds: 0,
      timed: 0,
    };
    byValue.set(value, sums);
  }
  return sums;
}

function countVisitor(sums: Sums, visitor: string): void {
  if (sums.last !== visitor) {
    sums.last = visitor;
    sums.visitors++;
  }
}

/** Adds one event (in visitor order) to the sums of one filter value (or of no filter). */
function add(groups: Groups, event: DayEvent, filtered: boolean): void {
  const { kind, visitor } = event;
  if (kind === 1) {
    const total = sumsOf(groups, 'total', '');
    countVisitor(total, visitor);
    total.pageviews++;
    total.visits += event.is_entry ? 1 : 0;
    const page = sumsOf(groups, 'page', event.path);
    countVisitor(page, visitor);
    page.pageviews++;
    for (const [dimension, column] of VIEW_DIMENSIONS) {
      const sums = sumsOf(groups, dimension, event[column]);
      countVisitor(sums, visitor);
      sums.pageviews++;
    }
  } else if (kind === 2) {
    const total = sumsOf(groups, 'total', '');
    total.bounces += event.is_bounce ? 1 : 0;
    total.seconds += event.seconds;
    total.timed++;
    const page = sumsOf(groups, 'page', event.path);
    page.seconds += event.seconds;
    page.timed++;
    if (event.is_exit) {
      const exit = sumsOf(groups, 'exit', event.path);
      countVisitor(exit, visitor);
      exit.pageviews++;
    }
  } else if (!filtered && (kind === 4 || kind === 5)) {
    // games are rolled up unfiltered only
    sumsOf(groups, 'total', '');
    const sums = sumsOf(groups, kind === 4 ? 'play' : 'locked', event.game);
    countVisitor(sums, visitor);
    sums.pageviews++;
    if (kind === 4) {
      sums.seconds += event.seconds;
      sums.timed++;
    }
  } else if (!filtered) {
    sumsOf(groups, 'total', '');
  }
}

/** Appends the rows of one filter value's sums to `rows` (one at a time: never spread). */
function addRowsOfGroups(
  rows: RollupRow[],
  filter: string,
  filterValue: string,
  groups: Groups,
  bots: number,
): void {
  for (const [dimension, byValue] of groups) {
    for (const [value, sums] of byValue) {
      rows.push({
        filter,
        filter_value: filterValue,
        dimension,
        value,
        visitors: sums.visitors,
        pageviews: sums.pageviews,
        visits: sums.visits,
        bounces: sums.bounces,
        seconds: sums.seconds,
        timed: sums.timed,
        // a bot is never narrowed by a filter (as on raw events): every total holds the day's
        bots: dimension === 'total' ? bots : 0,
      });
    }
  }
}

/**
 * The most values of one column a day's rollups keep (by page views and leaves); the rest are
 * summed as OTHER_VALUE, as analytics tools do for tables past their cardinality. Rows grow
 * with values × dimensions × filters: 40,000 distinct UTM values in a day would otherwise be
 * millions of rows. Raw events (today) and segments (two or more filters) keep every value.
 */
export const MAX_VALUES_PER_DAY = 1000;
export const OTHER_VALUE = '(other)';

/** `events` with each column's values past the day's MAX_VALUES_PER_DAY most used folded. */
function foldRareValues(events: readonly DayEvent[]): readonly DayEvent[] {
  const keep = new Map<(typeof FILTER_COLUMNS)[FilterKey], Set<string>>();
  for (const column of Object.values(FILTER_COLUMNS)) {
    const counts = new Map<string, number>();
    for (const event of events) {
      if (event.kind === 1 || event.kind === 2) {
        counts.set(event[column], (counts.get(event[column]) ?? 0) + 1);
      }
    }
    if (counts.size > MAX_VALUES_PER_DAY) {
      const top = [...counts]
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
        .slice(0, MAX_VALUES_PER_DAY)
        .map(([value]) => value);
      keep.set(column, new Set(top));
    }
  }
  if (keep.size === 0) {
    return events;
  }
  return events.map((event) => {
    const folded = { ...event };
    for (const [column, kept] of keep) {
      if (!kept.has(event[column])) {
        folded[column] = OTHER_VALUE;
      }
    }
    return folded;
  });
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * The rollup rows of one day's events. Visitors are distinct within the day. Any number of
 * events is summed without recursion or spreading, and a day with events always has its total
 * row (a day without one is a day not rolled up).
 */
export async function rollUpEvents(unordered: readonly DayEvent[]): Promise<RollupRow[]> {
  // in visitor order, a group's distinct visitors are its changes of visitor: no sets needed
  const events = foldRareValues(unordered).toSorted((a, b) =>
    a.visitor < b.visitor ? -1 : a.visitor > b.visitor ? 1 : 0,
  );
  let bots = 0;
  const unfiltered: Groups = new Map();
  sumsOf(unfiltered, 'total', '');
  for (const event of events) {
    bots += event.kind === 3 ? 1 : 0;
    add(unfiltered, event, false);
  }
  const rows: RollupRow[] = [];
  addRowsOfGroups(rows, '', '', unfiltered, bots);
  for (const [filter, column] of Object.entries(FILTER_COLUMNS)) {
    await nextTurn();
    const byFilterValue = new Map<string, Groups>();
    for (const event of events) {
      if (event.kind !== 1 && event.kind !== 2) {
        continue;
      }
      const filterValue = event[column];
      let groups = byFilterValue.get(filterValue);
      if (!groups) {
        groups = new Map();
        byFilterValue.set(filterValue, groups);
      }
      add(groups, event, true);
    }
    for (const [filterValue, groups] of byFilterValue) {
      addRowsOfGroups(rows, filter, filterValue, groups, bots);
    }
  }
  return rows;
}
