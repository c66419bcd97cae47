/**
 * The segments (segments.ts) this process has read, kept in memory up to a budget, least
 * recently used out first. Each view asks the database which days have a stored segment and
 * when it was written (a few hundred rows at most): a copy written since (the day was rolled up
 * again, here or in another process) is read again, a day dropped by retention is gone, and a
 * day with events but no segment yet (rolled up before segments existed) gets one.
 *
 * The budget bounds what is kept between views; one view over more days than it holds keeps
 * them all while it runs.
 */
import type { Day } from '../days.js';
import type { EventsRepo, StoredSegment } from './events-repo.js';
import { decodeSegment, type Segment } from './segments.js';

/** Days read from the database per statement. */
const READ_CHUNK = 31;

export interface SegmentStore {
  /** The segments of every day from `from` to `to` that has events, oldest first. */
  segments(from: Day, to: Day): Promise<Array<[Day, Segment]>>;
  /** Lets go of the days before `day` (dropped by retention). */
  forgetBefore(day: Day): void;
}

interface Kept {
  stamp: string;
  segment: Segment;
}

export function createSegmentStore(repo: EventsRepo, budgetBytes: number): SegmentStore {
  /** In use order: a hit moves its day to the end. */
  const cache = new Map<Day, Kept>();
  /** Reads under way, by day and stamp, so concurrent views read a day once. */
  const reading = new Map<string, Promise<Segment | null>>();
  let held = 0;
  /** Days before this were dropped by retention: a read finishing late keeps nothing of them. */
  let forgottenBefore: Day = '';

  function drop(day: Day) {
    const kept = cache.get(day);
    if (kept) {
      cache.delete(day);
      held -= kept.segment.bytes;
    }
  }

  function keep({ day, stamp }: StoredSegment, segment: Segment) {
    drop(day);
    if (stamp === '' || day < forgottenBefore) {
      return; // not the stored row's stamp (read again next time), or dropped since
    }
    cache.set(day, { stamp, segment });
    held += segment.bytes;
    for (const [old] of cache) {
      if (held <= budgetBytes) {
        break;
      }
      drop(old);
    }
  }

  /** Reads stored segments in chunks, building those of days that have events but none. */
  function read(wanted: ReadonlyArray<{ day: Day; stamp: string | undefined }>) {
    const results = new Map<Day, Promise<Segment | null>>();
    const stored = wanted.filter((entry) => entry.stamp !== undefined).map((entry) => entry.day);
    for (let start = 0; start < stored.length; start += READ_CHUNK) {
      const chunk = stored.slice(start, start + READ_CHUNK);
      const rows = repo.readSegments(chunk).then(
        (found) =>
          new Map(
            found.map((row): [Day, Segment] => {
              const segment = decodeSegment(row.data);
              keep(row, segment);
              return [row.day, segment];
            }),
          ),
      );
      // a segment deleted since the stamps were read (retention) counts nothing
      for (const day of chunk) {
        results.set(
          day,
          rows.then((byDay) => byDay.get(day) ?? null),
        );
      }
    }
    for (const { day, stamp } of wanted) {
      if (stamp === undefined) {
        results.set(
          day,
          repo.buildSegment(day).then((built) => {
            if (!built) {
              return null;
            }
            const segment = decodeSegment(built.data);
            keep(built, segment);
            return segment;
          }),
        );
      }
    }
    return results;
  }

  return {
    async segments(from, to) {
      const [stamps, eventDays] = await Promise.all([
        repo.segmentStamps(from, to),
        repo.listPartitionDays(),
      ]);
      const days = [
        ...new Set([...stamps.keys(), ...eventDays.filter((day) => day >= from && day <= to)]),
      ].sort();
      const found = new Map<Day, Segment | Promise<Segment | null>>();
      const missing: Array<{ day: Day; stamp: string | undefined }> = [];
      for (const day of days) {
        const stamp = stamps.get(day);
        const kept = cache.get(day);
        if (kept && kept.stamp === stamp) {
          cache.delete(day);
          cache.set(day, kept);
          found.set(day, kept.segment);
          continue;
        }
        const pending = reading.get(`${day}@${stamp}`);
        if (pending) {
          found.set(day, pending);
        } else {
          missing.push({ day, stamp });
        }
      }
      for (const [day, segment] of read(missing)) {
        const key = `${day}@${stamps.get(day)}`;
        reading.set(key, segment);
        void segment.finally(() => reading.delete(key)).catch(() => undefined);
        found.set(day, segment);
      }
      const answer: Array<[Day, Segment]> = [];
      for (const day of days) {
        const segment = await found.get(day);
        if (segment) {
          answer.push([day, segment]);
        }
      }
      return answer;
    },

    forgetBefore(day) {
      forgottenBefore = day;
      for (const old of [...cache.keys()]) {
        if (old < day) {
          drop(old);
        }
      }
    },
  };
}
