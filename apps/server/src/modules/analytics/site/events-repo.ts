import { sql } from 'drizzle-orm';

import type { Db } from '../../../db/client.js';
import { rowsOf } from '../../../db/rows.js';
import { addDays, type Day } from '../days.js';
import type { DayEvent, EventRow } from './events.js';
import { rollUpEvents } from './rollup.js';
import { encodeSegment } from './segments.js';

const COLUMNS = `day date, at timestamptz, kind smallint, visitor bigint, path text, entry_path text,
  is_entry boolean, referrer text, utm_source text, utm_medium text, utm_campaign text,
  country text, device text, browser text, os text, seconds integer, is_exit boolean,
  is_bounce boolean, game text`;
const COLUMN_NAMES = COLUMNS.split(',')
  .map((column) => column.trim().split(/\s+/)[0])
  .join(', ');

const ROLLUP_COLUMNS = `filter text, filter_value text, dimension text, value text,
  visitors integer, pageviews integer, visits integer, bounces integer, seconds bigint,
  timed integer, bots integer`;
const ROLLUP_COLUMN_NAMES = ROLLUP_COLUMNS.split(',')
  .map((column) => column.trim().split(/\s+/)[0])
  .join(', ');

/** Rows per insert statement (one JSON parameter). */
const INSERT_CHUNK = 20_000;

export const partitionName = (day: Day) => `analytics_events_${day.replaceAll('-', '')}`;

/** A day's segment as stored: `stamp` changes whenever the day is rolled up again. */
export interface StoredSegment {
  day: Day;
  stamp: string;
  data: Uint8Array;
}

/** A bytea parameter on either driver (pg takes a Buffer; PGlite any Uint8Array). */
const asBytea = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** A day's events as rollups and segments read them (every kind, any order). */
const dayEvents = (db: Db, day: Day) =>
  rowsOf<DayEvent>(
    db,
    sql`select kind, visitor::text as visitor, path, entry_path, referrer, utm_source,
          utm_medium, utm_campaign, country, device, browser, os, seconds, is_entry, is_exit,
          is_bounce, game
        from analytics_events where day = ${day}::date`,
  );

/**
 * (Re)computes one day's rollups (rollup.ts) and its segment (segments.ts) from its
 * partition, read once.
 */
async function rollUpDay(db: Db, day: Day): Promise<void> {
  const d = sql`${day}::date`;
  const events = await dayEvents(db, day);
  const rows = await rollUpEvents(events);
  const segment = encodeSegment(events);
  await db.transaction(async (tx) => {
    await tx.execute(sql`delete from analytics_daily where day = ${d}`);
    for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
      await tx.execute(sql`
        insert into analytics_daily (day, ${sql.raw(ROLLUP_COLUMN_NAMES)})
        select ${d}, ${sql.raw(ROLLUP_COLUMN_NAMES)}
        from json_to_recordset(${JSON.stringify(rows.slice(start, start + INSERT_CHUNK))}::json)
          as x(${sql.raw(ROLLUP_COLUMNS)})`);
    }
    await tx.execute(sql`
      insert into analytics_segments (day, data) values (${d}, ${asBytea(segment)})
      on conflict (day) do update set data = excluded.data, built_at = clock_timestamp()`);
  });
}

/**
 * Encodes and stores the segment of a day that has events but none (rolled up before
 * segments existed); null when the day has no events. The stamp is '' when another process
 * stored it first (the answer is the same events, but not the stored row's stamp).
 */
async function buildSegment(db: Db, day: Day): Promise<StoredSegment | null> {
  const events = await dayEvents(db, day);
  if (events.length === 0) {
    return null;
  }
  const data = encodeSegment(events);
  const [row] = await rowsOf<{ stamp: string }>(
    db,
    sql`insert into analytics_segments (day, data) values (${day}::date, ${asBytea(data)})
        on conflict (day) do nothing returning built_at::text as stamp`,
  );
  return { day, stamp: row?.stamp ?? '', data };
}

/** Writes and maintains the partitioned events table: batches, partitions, rollups, retention. */
export function createEventsRepo(db: Db) {
  const knownPartitions = new Set<Day>();

  async function ensurePartition(day: Day): Promise<void> {
    if (knownPartitions.has(day)) {
      return;
    }
    const name = partitionName(day);
    try {
      await db.execute(
        sql.raw(
          `create table if not exists ${name} partition of analytics_events for values from ('${day}') to ('${addDays(day, 1)}')`,
        ),
      );
    } catch (error) {
      // another process created it at the same moment: PostgreSQL says so as a duplicate table
      // or, a step earlier, as a duplicate row type (drizzle wraps the driver's error in `cause`)
      const { code, cause } = error as { code?: string; cause?: { code?: string } };
      if (!['42P07', '23505'].includes(code ?? cause?.code ?? '')) {
        throw error;
      }
    }
    knownPartitions.add(day);
  }

  return {
    ensurePartition,

    /** Appends events in as few statements as possible; returns the statements issued. */
    async insert(rows: readonly EventRow[]): Promise<number> {
      for (const day of new Set(rows.map((row) => row.day))) {
        await ensurePartition(day);
      }
      let statements = 0;
      for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
        const chunk = rows.slice(start, start + INSERT_CHUNK);
        statements++;
        await db.execute(sql`
          insert into analytics_events (${sql.raw(COLUMN_NAMES)})
          select ${sql.raw(COLUMN_NAMES)}
          from json_to_recordset(${JSON.stringify(chunk)}::json) as x(${sql.raw(COLUMNS)})`);
      }
      return statements;
    },

    /** The days that have a partition, oldest first. */
    async listPartitionDays(): Promise<Day[]> {
      const rows = await rowsOf<{ name: string }>(
        db,
        sql`select c.relname as name from pg_inherits i
            join pg_class c on c.oid = i.inhrelid
            join pg_class p on p.oid = i.inhparent
            where p.relname = 'analytics_events'`,
      );
      return rows
        .map((row) => /^analytics_events_(\d{4})(\d{2})(\d{2})$/.exec(row.name))
        .filter((match) => match !== null)
        .map((match) => `${match[1]}-${match[2]}-${match[3]}`)
        .sort();
    },

    /** Drops whole partitions (and rollups and segments) of days before `day`. */
    async dropBefore(day: Day, days: readonly Day[]): Promise<number> {
      let dropped = 0;
      for (const old of days) {
        if (old < day) {
          await db.execute(sql.raw(`drop table if exists ${partitionName(old)}`));
          knownPartitions.delete(old);
          dropped++;
        }
      }
      await db.execute(sql`delete from analytics_daily where day < ${day}::date`);
      await db.execute(sql`delete from analytics_segments where day < ${day}::date`);
      return dropped;
    },

    /** The latest day whose rollup exists. */
    async lastRolledUpDay(): Promise<Day | null> {
      const [row] = await rowsOf<{ day: string | null }>(
        db,
        sql`select max(day)::text as day from analytics_daily
            where filter = '' and filter_value = '' and dimension = 'total'`,
      );
      return row?.day ?? null;
    },

    /** The days from `from` on whose rollup exists (their total row). */
    async rolledUpDays(from: Day): Promise<Set<Day>> {
      const rows = await rowsOf<{ day: Day }>(
        db,
        sql`select day::text as day from analytics_daily
            where filter = '' and filter_value = '' and dimension = 'total' and value = ''
              and day >= ${from}::date`,
      );
      return new Set(rows.map((row) => row.day));
    },

    rollUp: (day: Day) => rollUpDay(db, day),

    buildSegment: (day: Day) => buildSegment(db, day),

    /** When each stored segment from `from` to `to` was written, by day. */
    async segmentStamps(from: Day, to: Day): Promise<Map<Day, string>> {
      const rows = await rowsOf<{ day: Day; stamp: string }>(
        db,
        sql`select day::text as day, built_at::text as stamp from analytics_segments
            where day between ${from}::date and ${to}::date`,
      );
      return new Map(rows.map((row) => [row.day, row.stamp]));
    },

    /** The stored segments of these days (a day without one is left out). */
    async readSegments(days: readonly Day[]): Promise<StoredSegment[]> {
      return rowsOf<StoredSegment>(
        db,
        sql`select day::text as day, built_at::text as stamp, data from analytics_segments
            where day = any(string_to_array(${days.join(',')}, ',')::date[])`,
      );
    },
  };
}

export type EventsRepo = ReturnType<typeof createEventsRepo>;
