/**
 * The segments (segments.ts) this process has read, kept in memory up to a budget, least
 * recently used out first. A segment never changes once stored, so every process may keep its
 * own copy; a day rolled up before segments existed gets one the first time it is asked for.
 */
import type { Day, EventsRepo } from './events-repo.js';
import { decodeSegment, type Segment } from './segments.js';

/** Days read from the database per statement. */
const READ_CHUNK = 31;

export interface SegmentStore {
  /** The segments of every day from `from` to `to` that has events, by day. */
  segments(from: Day, to: Day): Promise<Array<[Day, Segment]>>;
  /** Re-reads which days have events; forgets the days before `droppedBefore` (retention). */
  refresh(droppedBefore?: Day): void;
  /** Bytes held now. */
  held(): number;
}

export function createSegmentStore(repo: EventsRepo, budgetBytes: number): SegmentStore {
  /** In use order: a hit moves its day to the end. */
  const cache = new Map<Day, Segment>();
  const reading = new Map<Day, Promise<Segment>>();
  let held = 0;
  let eventDays: Promise<Day[]> | undefined;

  function keep(day: Day, segment: Segment) {
    cache.set(day, segment);
    held += segment.bytes;
    for (const [old, known] of cache) {
      if (held <= budgetBytes) {
        break;
      }
      cache.delete(old);
      held -= known.bytes;
    }
  }

  async function read(days: readonly Day[]): Promise<Map<Day, Segment>> {
    const found = new Map<Day, Segment>();
    for (const { day, data } of await repo.readSegments(days)) {
      found.set(day, decodeSegment(data));
    }
    for (const day of days) {
      if (!found.has(day)) {
        found.set(day, decodeSegment(await repo.buildSegment(day)));
      }
    }
    for (const [day, segment] of found) {
      keep(day, segment);
    }
    return found;
  }

  return {
    async segments(from, to) {
      eventDays ??= repo.listPartitionDays().catch((error: unknown) => {
        eventDays = undefined;
        throw error;
      });
      const days = (await eventDays).filter((day) => day >= from && day <= to);
      const wanted: Array<Promise<[Day, Segment]>> = [];
      const missing: Day[] = [];
      for (const day of days) {
        const cached = cache.get(day);
        if (cached) {
          cache.delete(day);
          cache.set(day, cached);
          wanted.push(Promise.resolve([day, cached]));
        } else {
          const pending = reading.get(day);
          if (pending) {
            wanted.push(pending.then((segment) => [day, segment]));
          } else {
            missing.push(day);
          }
        }
      }
      for (let start = 0; start < missing.length; start += READ_CHUNK) {
        const chunk = missing.slice(start, start + READ_CHUNK);
        const batch = read(chunk);
        for (const day of chunk) {
          const one = batch.then((found) => {
            const segment = found.get(day);
            if (!segment) {
              throw new Error(`no analytics segment for ${day}`);
            }
            return segment;
          });
          reading.set(day, one);
          void one.finally(() => reading.delete(day)).catch(() => undefined);
          wanted.push(one.then((segment) => [day, segment]));
        }
      }
      return Promise.all(wanted);
    },

    refresh(droppedBefore) {
      eventDays = undefined;
      for (const [old, segment] of cache) {
        if (droppedBefore !== undefined && old < droppedBefore) {
          cache.delete(old);
          held -= segment.bytes;
        }
      }
    },

    held: () => held,
  };
}
