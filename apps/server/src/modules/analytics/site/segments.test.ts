import { describe, expect, it } from 'vitest';

import { FILTER_COLUMNS, type DayEvent, type FilterKey } from './events.js';
import {
  addSegmentGroups,
  decodeSegment,
  encodeSegment,
  type SegmentDimension,
  type SegmentFilters,
  type SegmentGroup,
  segmentTotals,
} from './segments.js';

/** A repeatable pseudo-random sequence (mulberry32). */
function randomOf(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** A day of events: `referrers` distinct referrers (over 255 makes that column two bytes). */
function dayOfEvents(count: number, referrers: number, seed: number): DayEvent[] {
  const random = randomOf(seed);
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)] as T;
  return Array.from({ length: count }, () => {
    const roll = random();
    return {
      kind: roll < 0.3 ? 2 : roll < 0.33 ? 3 : roll < 0.35 ? 4 : 1,
      visitor: String(Math.floor(random() * (count / 4))),
      path: pick(['/', '/games', '/Gallery', '/Tutorials', 'other']),
      entry_path: pick(['/', '/games']),
      is_entry: random() < 0.4,
      referrer: `r${Math.floor(random() * referrers)}.example`,
      utm_source: pick(['(none)', 'newsletter']),
      utm_medium: pick(['(none)', 'email']),
      utm_campaign: pick(['(none)', 'launch']),
      country: pick(['US', 'GB', 'DE']),
      device: pick(['desktop', 'mobile', 'tablet']),
      browser: pick(['Chrome', 'Safari', 'Firefox']),
      os: pick(['Windows', 'iOS', 'Android']),
      seconds: Math.floor(random() * 100_000),
      is_exit: random() < 0.6,
      is_bounce: random() < 0.3,
      game: 'Pong',
    };
  });
}

const matches = (event: DayEvent, filters: SegmentFilters) =>
  filters.every(([key, value]) => event[FILTER_COLUMNS[key]] === value);

/** The figures the raw-event SQL gives, computed the slow way. */
function expectedTotals(events: DayEvent[], filters: SegmentFilters) {
  const views = events.filter((event) => event.kind === 1 && matches(event, filters));
  const leaves = events.filter((event) => event.kind === 2 && matches(event, filters));
  return {
    visitors: new Set(views.map((event) => event.visitor)).size,
    pageviews: views.length,
    visits: views.filter((event) => event.is_entry).length,
    bounces: leaves.filter((event) => event.is_bounce).length,
    seconds: leaves.reduce((sum, event) => sum + event.seconds, 0),
    bots: events.filter((event) => event.kind === 3).length,
  };
}

function expectedGroups(events: DayEvent[], dimension: SegmentDimension, filters: SegmentFilters) {
  const column = FILTER_COLUMNS[dimension === 'exit' ? 'page' : dimension];
  const groups = new Map<string, SegmentGroup & { who: Set<string> }>();
  const groupOf = (value: string) => {
    let group = groups.get(value);
    if (!group) {
      group = { value, visitors: 0, pageviews: 0, seconds: 0, timed: 0, who: new Set() };
      groups.set(value, group);
    }
    return group;
  };
  for (const event of events) {
    if (!matches(event, filters)) {
      continue;
    }
    const counted = dimension === 'exit' ? event.kind === 2 && event.is_exit : event.kind === 1;
    if (counted) {
      const group = groupOf(event[column]);
      group.pageviews++;
      group.who.add(event.visitor);
    } else if (dimension === 'page' && event.kind === 2) {
      const group = groupOf(event[column]);
      group.seconds += event.seconds;
      group.timed++;
    }
  }
  return [...groups.values()]
    .map(({ who, ...group }) => ({ ...group, visitors: who.size }))
    .sort((a, b) => (a.value < b.value ? -1 : 1));
}

const DIMENSIONS: SegmentDimension[] = ['page', 'exit', 'referrer', 'country', 'entry'];
const FILTER_SETS: SegmentFilters[] = [
  [
    ['country', 'DE'],
    ['device', 'mobile'],
  ],
  [
    ['page', '/games'],
    ['browser', 'Safari'],
  ],
  [
    ['referrer', 'r7.example'],
    ['os', 'iOS'],
  ],
  [
    ['country', 'US'],
    ['device', 'desktop'],
    ['utm_source', 'newsletter'],
  ],
  [
    ['country', 'US'],
    ['device', 'nowhere'],
  ],
];

describe('analytics segments', () => {
  for (const [label, referrers] of [
    ['byte codes', 40],
    ['two-byte codes', 700],
  ] as const) {
    it(`answer as the raw events do under two and three filters (${label})`, () => {
      const events = dayOfEvents(6_000, referrers, referrers);
      const segment = decodeSegment(encodeSegment(events));
      let matched = 0;
      // a scan after one with many matches writes every event; after one with none, it looks
      // into the words holding a match only: both ways must agree
      const many: SegmentFilters = [
        ['utm_medium', '(none)'],
        ['utm_medium', '(none)'],
      ];
      const none: SegmentFilters = [
        ['device', 'mobile'],
        ['device', 'desktop'],
      ];
      for (const filters of FILTER_SETS) {
        segmentTotals(segment, many);
        const totals = segmentTotals(segment, filters);
        expect(totals).toEqual(expectedTotals(events, filters));
        segmentTotals(segment, none);
        expect(segmentTotals(segment, filters)).toEqual(totals);
        matched += totals.pageviews;
        for (const dimension of DIMENSIONS) {
          const groups = new Map<string, SegmentGroup>();
          addSegmentGroups(groups, segment, dimension, filters);
          const sorted = [...groups.values()].sort((a, b) => (a.value < b.value ? -1 : 1));
          expect(sorted, `${dimension} under ${JSON.stringify(filters)}`).toEqual(
            expectedGroups(events, dimension, filters),
          );
        }
      }
      expect(matched).toBeGreaterThan(100);
    });
  }

  it('survives a copy at an odd offset (as a driver may hand it over) and an empty day', () => {
    const events = dayOfEvents(1_001, 10, 3);
    const stored = encodeSegment(events);
    const shifted = new Uint8Array(stored.length + 1);
    shifted.set(stored, 1);
    const filters: SegmentFilters = [
      ['device', 'mobile'],
      ['browser', 'Chrome'],
    ];
    expect(segmentTotals(decodeSegment(shifted.subarray(1)), filters)).toEqual(
      expectedTotals(events, filters),
    );
    const empty = decodeSegment(encodeSegment([]));
    expect(segmentTotals(empty, filters)).toEqual(expectedTotals([], filters));
  });

  it('counts a visitor once a day in each group, whatever the events between', () => {
    const [template] = dayOfEvents(1, 1, 9) as [DayEvent];
    const visit = (visitor: string, path: string, key: FilterKey = 'country') => ({
      ...template,
      kind: 1,
      visitor,
      path,
      country: 'DE',
      device: 'mobile',
      [FILTER_COLUMNS[key]]: 'DE',
    });
    const events = [
      visit('1', '/'),
      visit('2', '/'),
      visit('1', '/games'),
      visit('1', '/'),
      visit('3', '/games'),
    ];
    const segment = decodeSegment(encodeSegment(events));
    const filters: SegmentFilters = [
      ['country', 'DE'],
      ['device', 'mobile'],
    ];
    expect(segmentTotals(segment, filters).visitors).toBe(3);
    const pages = new Map<string, SegmentGroup>();
    addSegmentGroups(pages, segment, 'page', filters);
    expect(pages.get('/')?.visitors).toBe(2);
    expect(pages.get('/')?.pageviews).toBe(3);
    expect(pages.get('/games')?.visitors).toBe(2);
  });
});
