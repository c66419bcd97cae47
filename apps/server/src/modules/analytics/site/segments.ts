/**
 * One rolled-up day's page views and leaves as columns, for views narrowed by two or more
 * filters (the rollups hold one filter at most; a second would need every pair of values).
 *
 * A segment keeps two tables, the day's page views and its leaves. Each has, per event, a flags
 * byte and one small code per filter column (a code indexes the day's distinct values of that
 * column: one byte while there are fewer than 255), and the leaves their seconds. Events are in
 * visitor order and a flag marks each new visitor, so a group's distinct visitors are its
 * changes of visitor ordinal, as in the rollups. A day is encoded when it is rolled up (stored
 * in analytics_segments), and each process keeps the segments it has read in memory
 * (segment-store.ts).
 *
 * A view under two filters first lists the events that match: for the first two filters, four
 * events at a time, one 32-bit word of byte codes per column, so a word without a match costs a
 * few operations and no branch that mispredicts; any further filter is checked on that list.
 * The figures are then summed over the list only.
 */
import { FILTER_COLUMNS, type DayEvent, type FilterKey } from './events.js';

const FORMAT_VERSION = 2;
const KEYS = Object.keys(FILTER_COLUMNS) as FilterKey[];

/** Bits of an event's flags byte. */
const NEW_VISITOR = 1;
const ENTRY = 2;
const EXIT = 4;
const BOUNCE = 8;

/** A byte code is never this: it pads byte columns to whole words, matching nothing. */
const PAD = 0xff;

type Codes = Uint8Array | Uint16Array | Uint32Array;

interface Values {
  list: string[];
  /** Code of a value, built when a filter first asks. */
  lookup?: Map<string, number>;
}

/** Page views or leaves, in visitor order. */
interface Table {
  events: number;
  /** Padded with zeros to whole words. */
  flags: Uint8Array;
  columns: Record<FilterKey, Codes>;
}

export interface Segment {
  /** The day's bot hits (never narrowed by a filter). */
  bots: number;
  values: Record<FilterKey, Values>;
  views: Table;
  /** With the seconds on the page of each leave. */
  leaves: Table & { seconds: Uint16Array | Uint32Array };
  /** Memory held, roughly. */
  bytes: number;
}

export type SegmentFilters = ReadonlyArray<readonly [FilterKey, string]>;

interface Header {
  version: number;
  views: number;
  leaves: number;
  bots: number;
  values: Record<FilterKey, string[]>;
}

/** Bytes per code: one while every code and the padding fit in a byte. */
const widthOf = (distinct: number) => (distinct < PAD ? 1 : distinct <= 0x10000 ? 2 : 4);
const align4 = (offset: number) => (offset + 3) & ~3;

function codesView(buffer: ArrayBuffer, offset: number, length: number, width: number): Codes {
  return width === 1
    ? new Uint8Array(buffer, offset, length)
    : width === 2
      ? new Uint16Array(buffer, offset, length)
      : new Uint32Array(buffer, offset, length);
}

/** The bytes a table takes: flags, then each column, each padded to whole words. */
function tableSize(events: number, widths: readonly number[]): number {
  return align4(events) + widths.reduce((sum, width) => sum + align4(events * width), 0);
}

/** The bytes stored for one day's events (any order, every kind). */
export function encodeSegment(dayEvents: readonly DayEvent[]): Uint8Array {
  let bots = 0;
  const views: DayEvent[] = [];
  const leaves: DayEvent[] = [];
  for (const event of dayEvents) {
    if (event.kind === 1) {
      views.push(event);
    } else if (event.kind === 2) {
      leaves.push(event);
    } else if (event.kind === 3) {
      bots++;
    }
  }
  const byVisitor = (a: DayEvent, b: DayEvent) =>
    a.visitor < b.visitor ? -1 : a.visitor > b.visitor ? 1 : 0;
  views.sort(byVisitor);
  leaves.sort(byVisitor);
  const values = {} as Record<FilterKey, string[]>;
  const codes = {} as Record<FilterKey, Map<string, number>>;
  for (const key of KEYS) {
    const column = FILTER_COLUMNS[key];
    const known = new Map<string, number>();
    for (const events of [views, leaves]) {
      for (const event of events) {
        if (!known.has(event[column])) {
          known.set(event[column], known.size);
        }
      }
    }
    codes[key] = known;
    values[key] = [...known.keys()];
  }
  const widths = KEYS.map((key) => widthOf(values[key].length));
  const secondsWidth = leaves.some((event) => event.seconds > 0xffff) ? 4 : 2;
  const header = new TextEncoder().encode(
    JSON.stringify({
      version: FORMAT_VERSION,
      views: views.length,
      leaves: leaves.length,
      bots,
      values,
    } satisfies Header),
  );
  const start = align4(4 + header.length);
  const bytes = new Uint8Array(
    start +
      tableSize(views.length, widths) +
      tableSize(leaves.length, widths) +
      leaves.length * secondsWidth,
  );
  const buffer = bytes.buffer;
  new DataView(buffer).setUint32(0, header.length, true);
  bytes.set(header, 4);
  let offset = start;
  const writeTable = (events: DayEvent[], flagsOf: (event: DayEvent) => number) => {
    let previous: string | undefined;
    events.forEach((event, index) => {
      bytes[offset + index] = flagsOf(event) | (event.visitor !== previous ? NEW_VISITOR : 0);
      previous = event.visitor;
    });
    offset += align4(events.length);
    KEYS.forEach((key, index) => {
      const width = widths[index] ?? 1;
      const column = codesView(buffer, offset, align4(events.length * width) / width, width);
      const known = codes[key];
      const field = FILTER_COLUMNS[key];
      column.fill(PAD);
      events.forEach((event, at) => {
        column[at] = known.get(event[field]) ?? PAD;
      });
      offset += align4(events.length * width);
    });
  };
  writeTable(views, (event) => (event.is_entry ? ENTRY : 0));
  writeTable(leaves, (event) => (event.is_exit ? EXIT : 0) | (event.is_bounce ? BOUNCE : 0));
  const seconds = leaves.map((event) => event.seconds);
  if (secondsWidth === 2) {
    new Uint16Array(buffer, offset, seconds.length).set(seconds);
  } else {
    new Uint32Array(buffer, offset, seconds.length).set(seconds);
  }
  return bytes;
}

/** A stored segment, ready to scan. */
export function decodeSegment(stored: Uint8Array): Segment {
  // a copy of its own: the driver's Buffer may be a view at an odd offset of a shared pool
  const bytes = new Uint8Array(stored);
  const buffer = bytes.buffer;
  const headerLength = new DataView(buffer).getUint32(0, true);
  const header = JSON.parse(
    new TextDecoder().decode(bytes.subarray(4, 4 + headerLength)),
  ) as Header;
  if (header.version !== FORMAT_VERSION) {
    throw new Error(`analytics segment format ${header.version} is not ${FORMAT_VERSION}`);
  }
  let offset = align4(4 + headerLength);
  const readTable = (events: number): Table => {
    const flags = new Uint8Array(buffer, offset, align4(events));
    offset += align4(events);
    const columns = {} as Record<FilterKey, Codes>;
    for (const key of KEYS) {
      const width = widthOf(header.values[key].length);
      columns[key] = codesView(buffer, offset, align4(events * width) / width, width);
      offset += align4(events * width);
    }
    return { events, flags, columns };
  };
  const views = readTable(header.views);
  const leaves = readTable(header.leaves);
  const secondsWidth = header.leaves > 0 ? (bytes.byteLength - offset) / header.leaves : 2;
  const seconds =
    secondsWidth === 4
      ? new Uint32Array(buffer, offset, header.leaves)
      : new Uint16Array(buffer, offset, header.leaves);
  const values = {} as Record<FilterKey, Values>;
  let held = bytes.byteLength;
  for (const key of KEYS) {
    values[key] = { list: header.values[key] };
    held += header.values[key].reduce((sum, value) => sum + 40 + value.length * 2, 0);
  }
  return {
    bots: header.bots,
    values,
    views,
    leaves: { ...leaves, seconds },
    bytes: held,
  };
}

function codeOf(values: Values, value: string): number | undefined {
  values.lookup ??= new Map(values.list.map((known, code) => [known, code]));
  return values.lookup.get(value);
}

/** The matches of the last match() call: event index and visitor ordinal (reused buffers). */
const matches = { index: new Int32Array(1024), visitor: new Int32Array(1024) };

/** The share of matching events of the last table scanned (the next is likely alike). */
let lastDensity = 0;
/** From this share on, matchBytes() writes every event (measured: bench/analytics.ts). */
const DENSE_FROM = 0.06;

/** Sum of the four bytes of a word whose bytes are each 0 or 1. */
const byteSum = (word: number) => Math.imul(word, 0x01010101) >>> 24;

/**
 * Lists the table's events matching every filter into `matches`; answers how many. Nothing is read when a filter's value never occurs that day.
 */
function match(segment: Segment, table: Table, filters: SegmentFilters): number {
  const columns: Codes[] = [];
  const wanted: number[] = [];
  for (const [key, value] of filters) {
    const code = codeOf(segment.values[key], value);
    if (code === undefined) {
      return 0;
    }
    columns.push(table.columns[key]);
    wanted.push(code);
  }
  if (columns.length === 1) {
    // one filter (rollups answer those): checked twice
    columns.push(...columns);
    wanted.push(...wanted);
  }
  const { events, flags } = table;
  if (matches.index.length < events + 4) {
    matches.index = new Int32Array(events + 4);
    matches.visitor = new Int32Array(events + 4);
  }
  const matchIndex = matches.index;
  const matchVisitor = matches.visitor;
  const [first, second] = columns as [Codes, Codes];
  const [firstCode, secondCode] = wanted as [number, number];
  let count = 0;
  let visitor = -1;
  if (first instanceof Uint8Array && second instanceof Uint8Array) {
    count = matchBytes(table, first, firstCode, second, secondCode);
  } else {
    for (let index = 0; index < events; index++) {
      visitor += (flags[index] ?? 0) & NEW_VISITOR;
      if ((((first[index] ?? -1) ^ firstCode) | ((second[index] ?? -1) ^ secondCode)) === 0) {
        matchIndex[count] = index;
        matchVisitor[count++] = visitor;
      }
    }
  }
  lastDensity = events > 0 ? count / events : 0;
  if (columns.length > 2) {
    // a third filter or more: kept to the events the first two let through
    let kept = 0;
    for (let at = 0; at < count; at++) {
      const index = matchIndex[at] ?? 0;
      let next = 2;
      while (next < columns.length && columns[next]?.[index] === wanted[next]) {
        next++;
      }
      if (next === columns.length) {
        matchIndex[kept] = index;
        matchVisitor[kept++] = matchVisitor[at] ?? 0;
      }
    }
    count = kept;
  }
  return count;
}

/**
 * match() for two byte columns, four events per step: a zero byte of (a ^ wanted a) |
 * (b ^ wanted b) is a match. Where matches are few, only the words holding one are looked into;
 * where they are many (as the last table scanned had), every event is written and the count
 * moved by its match bit, so no branch mispredicts.
 */
function matchBytes(
  table: Table,
  first: Uint8Array,
  firstCode: number,
  second: Uint8Array,
  secondCode: number,
): number {
  const { index: matchIndex, visitor: matchVisitor } = matches;
  const { flags } = table;
  const dense = lastDensity > DENSE_FROM;
  let count = 0;
  let visitor = -1;
  const words = align4(table.events) >>> 2;
  const a = new Uint32Array(first.buffer, first.byteOffset, words);
  const b = new Uint32Array(second.buffer, second.byteOffset, words);
  const f = new Uint32Array(flags.buffer, flags.byteOffset, words);
  const wantedA = Math.imul(firstCode, 0x01010101);
  const wantedB = Math.imul(secondCode, 0x01010101);
  for (let word = 0; word < words; word++) {
    const newVisitors = (f[word] ?? 0) & 0x01010101;
    const differs = ((a[word] ?? 0) ^ wantedA) | ((b[word] ?? 0) ^ wantedB);
    // 0x80 in each byte that is zero, exactly (no borrow between bytes)
    const zeros = ~(((differs & 0x7f7f7f7f) + 0x7f7f7f7f) | differs | 0x7f7f7f7f);
    if (dense) {
      // every event written, the count moved by its match bit: no branch to mispredict
      const base = word << 2;
      matchIndex[count] = base;
      matchVisitor[count] = visitor + (newVisitors & 1);
      count += (zeros >>> 7) & 1;
      matchIndex[count] = base + 1;
      matchVisitor[count] = visitor + byteSum(newVisitors & 0xffff);
      count += (zeros >>> 15) & 1;
      matchIndex[count] = base + 2;
      matchVisitor[count] = visitor + byteSum(newVisitors & 0xffffff);
      count += (zeros >>> 23) & 1;
      matchIndex[count] = base + 3;
      matchVisitor[count] = visitor + byteSum(newVisitors);
      count += zeros >>> 31;
    } else {
      // few matches: only the words holding one are looked into
      let left = zeros;
      while (left !== 0) {
        const lowest = left & -left;
        // the bytes up to and including the match: its visitor ordinal counts their new visitors
        const through = (lowest << 1) - 1;
        matchIndex[count] = (word << 2) | ((31 - Math.clz32(lowest)) >>> 3);
        matchVisitor[count++] = visitor + byteSum(newVisitors & through);
        left ^= lowest;
      }
    }
    visitor += byteSum(newVisitors);
  }
  return count;
}

export interface SegmentTotals {
  visitors: number;
  pageviews: number;
  visits: number;
  bounces: number;
  seconds: number;
  bots: number;
}

/** A day's totals under the filters (visitors distinct within the day), as raw events give. */
export function segmentTotals(segment: Segment, filters: SegmentFilters): SegmentTotals {
  const totals = {
    visitors: 0,
    pageviews: 0,
    visits: 0,
    bounces: 0,
    seconds: 0,
    bots: segment.bots,
  };
  const { views, leaves } = segment;
  let count = match(segment, views, filters);
  // (read after match(): it may have grown the buffers)
  const { index: matchIndex, visitor: matchVisitor } = matches;
  let last = -1;
  for (let at = 0; at < count; at++) {
    totals.visits += ((views.flags[matchIndex[at] ?? 0] ?? 0) & ENTRY) >>> 1;
    const visitor = matchVisitor[at] ?? 0;
    if (visitor !== last) {
      last = visitor;
      totals.visitors++;
    }
  }
  totals.pageviews = count;
  count = match(segment, leaves, filters);
  // (re-read: a longer table may have grown the buffers)
  const leaveIndex = matches.index;
  for (let at = 0; at < count; at++) {
    const index = leaveIndex[at] ?? 0;
    totals.bounces += ((leaves.flags[index] ?? 0) & BOUNCE) >>> 3;
    totals.seconds += leaves.seconds[index] ?? 0;
  }
  return totals;
}

/** A breakdown's figures of one value, summed over days. */
export interface SegmentGroup {
  value: string;
  visitors: number;
  pageviews: number;
  seconds: number;
  timed: number;
}

/** The dimensions a segment can break down by: a filter column, or the exit page. */
export type SegmentDimension = FilterKey | 'exit';

/**
 * Adds one day's breakdown under the filters to `into` (by value): page views and their
 * visitors per value; for pages also the seconds and count of leaves; for exits the leaves that
 * ended a visit.
 */
export function addSegmentGroups(
  into: Map<string, SegmentGroup>,
  segment: Segment,
  dimension: SegmentDimension,
  filters: SegmentFilters,
): void {
  const key = dimension === 'exit' ? 'page' : dimension;
  const { list } = segment.values[key];
  const size = list.length;
  const visitors = new Uint32Array(size);
  const pageviews = new Uint32Array(size);
  const seconds = new Float64Array(size);
  const timed = new Uint32Array(size);
  const last = new Int32Array(size).fill(-1);
  // page views per value, or for exits the leaves that ended a visit
  const counted = dimension === 'exit' ? segment.leaves : segment.views;
  const codes = counted.columns[key];
  let count = match(segment, counted, filters);
  const { index: matchIndex, visitor: matchVisitor } = matches;
  for (let at = 0; at < count; at++) {
    const index = matchIndex[at] ?? 0;
    if (dimension === 'exit' && !((counted.flags[index] ?? 0) & EXIT)) {
      continue;
    }
    const code = codes[index] ?? 0;
    pageviews[code] = (pageviews[code] ?? 0) + 1;
    const visitor = matchVisitor[at] ?? 0;
    if (last[code] !== visitor) {
      last[code] = visitor;
      visitors[code] = (visitors[code] ?? 0) + 1;
    }
  }
  if (dimension === 'page') {
    const { leaves } = segment;
    const pages = leaves.columns.page;
    count = match(segment, leaves, filters);
    const leaveIndex = matches.index;
    for (let at = 0; at < count; at++) {
      const index = leaveIndex[at] ?? 0;
      const code = pages[index] ?? 0;
      seconds[code] = (seconds[code] ?? 0) + (leaves.seconds[index] ?? 0);
      timed[code] = (timed[code] ?? 0) + 1;
    }
  }
  for (const [code, value] of list.entries()) {
    const figures = {
      visitors: visitors[code] ?? 0,
      pageviews: pageviews[code] ?? 0,
      seconds: seconds[code] ?? 0,
      timed: timed[code] ?? 0,
    };
    if (figures.pageviews === 0 && figures.timed === 0) {
      continue;
    }
    const group = into.get(value);
    if (group) {
      group.visitors += figures.visitors;
      group.pageviews += figures.pageviews;
      group.seconds += figures.seconds;
      group.timed += figures.timed;
    } else {
      into.set(value, { value, ...figures });
    }
  }
}
