import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  AnalyticsBreakdown,
  AnalyticsGames,
  AnalyticsOverview,
  AnalyticsQuery,
  AnalyticsRealtime,
} from '@portfolio/types/analytics';
import { ActiveUsersResponse } from '@portfolio/types';

import { startTestApp, type TestApp, type TestClient, uniqueName } from '../../../test/harness.js';
import { buildGame, buildGameBuild, publishGame, signedInClient } from '../../../test/factories.js';
import { sql } from 'drizzle-orm';
import { createScratchDatabase, type ScratchDatabase } from '../../../test/scratch-database.js';
import { makeZip } from '../../game-host/test-zips.js';
import { rowsOf } from '../../../db/rows.js';
import { createEventsRepo } from './events-repo.js';
import { createAnalyticsQueryService } from './query-service.js';

/**
 * Site analytics over HTTP: heartbeats with page views and beacons in, the admin's
 * queries out. The clock is ours, so days can pass; each visitor is a distinct address (through
 * a trusted proxy header) and browser.
 */
let clock = Date.parse('2026-06-15T12:00:00Z');
let app: TestApp;
let admin: TestClient;

const CHROME_DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

let scratch: ScratchDatabase | undefined;

beforeAll(async () => {
  // exact counts: a database of its own on PostgreSQL too
  scratch = process.env.DATABASE_URL
    ? await createScratchDatabase(process.env.DATABASE_URL, 'test_site_analytics')
    : undefined;
  app = await startTestApp(
    {
      trustProxy: 'loopback',
      redisPrefix: uniqueName('site-analytics'),
      ...(scratch ? { databaseUrl: scratch.url } : {}),
    },
    { now: () => clock, eventFlushIntervalMs: 3_600_000, analyticsFlushIntervalMs: 3_600_000 },
  );
  admin = (await signedInClient(app, 'admin')).client;
});
afterAll(async () => {
  await app?.stop();
  await scratch?.drop();
});

interface Visitor {
  ip: string;
  userAgent: string;
}

function headersOf(visitor: Visitor) {
  return { 'x-forwarded-for': visitor.ip, 'user-agent': visitor.userAgent };
}

async function view(
  visitor: Visitor,
  path: string,
  view: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
) {
  const response = await app
    .client()
    .post('/api/anonymous-heartbeat', { currentPage: path, view, ...extra }, headersOf(visitor));
  expect(response.status).toBe(200);
}

async function beacon(visitor: Visitor, body: Record<string, unknown>, client = app.client()) {
  const response = await client.post('/api/analytics/beacon', body, headersOf(visitor));
  expect(response.status).toBe(204);
}

async function flush() {
  // give the salt lookups of the last calls a moment, then write the batch
  await new Promise((resolve) => setTimeout(resolve, 50));
  await app.deps.collector.flush();
}

async function overview(query = '') {
  const response = await admin.get(`/api/analytics/overview?${query}`);
  expect(response.status).toBe(200);
  return AnalyticsOverview.parse(response.body);
}

async function breakdown(dimension: string, query = '') {
  const response = await admin.get(`/api/analytics/breakdown/${dimension}?${query}`);
  expect(response.status).toBe(200);
  return AnalyticsBreakdown.parse(response.body).rows;
}

const rowOf = (rows: AnalyticsBreakdown['rows'], value: string) =>
  rows.find((row) => row.value === value);

const german: Visitor = { ip: '81.2.69.160', userAgent: CHROME_DESKTOP }; // GB range
const american: Visitor = { ip: '8.8.8.8', userAgent: SAFARI_IPHONE };

describe('site analytics', () => {
  it('counts page views, visits, entry and exit, sources, places and devices', async () => {
    // visitor 1 (desktop, GB) lands on / from a newsletter campaign, goes to /games, leaves
    const visit1 = {
      landing: '/',
      referrer: 'news.example.com',
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'launch',
    };
    await view(german, '/', { ...visit1, entry: true });
    clock += 20_000;
    await view(german, '/games', visit1, { left: undefined });
    await view(german, '/games', visit1, { left: { path: '/', seconds: 20 } });
    clock += 40_000;
    await beacon(german, { type: 'leave', path: '/games', seconds: 40, ...visit1 });
    // visitor 2 (phone, US) lands on /Gallery directly and bounces
    await view(american, '/gallery', { landing: '/Gallery', entry: true });
    clock += 5_000;
    await beacon(american, {
      type: 'leave',
      path: '/Gallery',
      seconds: 5,
      bounce: true,
      landing: '/Gallery',
    });
    // an unknown path is bucketed
    await view(american, '/wp-admin/setup.php', { landing: '/Gallery' });
    await flush();

    const { totals, series } = await overview('period=today');
    expect(totals.pageviews).toBe(5);
    // today by the hour: every view of this test is in the clock's hour
    expect(series).toHaveLength(24);
    const hour = new Date(clock).toISOString().slice(0, 13);
    expect(series.filter((point) => point.pageviews > 0)).toEqual([
      { bucket: `${hour}:00:00.000Z`, visitors: 2, pageviews: 5 },
    ]);
    expect(totals.visitors).toBe(2);
    expect(totals.visits).toBe(2);
    expect(totals.bounceRate).toBe(0.5);
    expect(totals.visitSeconds).toBe((20 + 40 + 5) / 2);

    const pages = await breakdown('page', 'period=today');
    expect(rowOf(pages, '/games')).toMatchObject({ visitors: 1, pageviews: 2, timeSeconds: 40 });
    expect(rowOf(pages, '/')).toMatchObject({ visitors: 1, pageviews: 1, timeSeconds: 20 });
    expect(rowOf(pages, '/Gallery')).toMatchObject({ visitors: 1, pageviews: 1 });
    expect(rowOf(pages, 'other')).toMatchObject({ visitors: 1, pageviews: 1 });

    expect(rowOf(await breakdown('entry', 'period=today'), '/')).toMatchObject({ visitors: 1 });
    const exits = await breakdown('exit', 'period=today');
    expect(exits.map((row) => row.value).sort()).toEqual(['/Gallery', '/games']);
    const referrers = await breakdown('referrer', 'period=today');
    expect(rowOf(referrers, 'news.example.com')).toMatchObject({ visitors: 1, pageviews: 3 });
    expect(rowOf(referrers, '(none)')).toMatchObject({ visitors: 1 });
    expect(rowOf(await breakdown('utm_source', 'period=today'), 'newsletter')).toBeDefined();
    expect(rowOf(await breakdown('utm_medium', 'period=today'), 'email')).toBeDefined();
    expect(rowOf(await breakdown('utm_campaign', 'period=today'), 'launch')).toBeDefined();
    const countries = await breakdown('country', 'period=today');
    expect(rowOf(countries, 'GB')).toMatchObject({ visitors: 1, pageviews: 3 });
    expect(rowOf(countries, 'US')).toMatchObject({ visitors: 1, pageviews: 2 });
    expect(rowOf(await breakdown('device', 'period=today'), 'mobile')).toMatchObject({
      visitors: 1,
    });
    expect(rowOf(await breakdown('device', 'period=today'), 'desktop')).toBeDefined();
    expect(rowOf(await breakdown('browser', 'period=today'), 'Chrome')).toBeDefined();
    expect(rowOf(await breakdown('browser', 'period=today'), 'Safari')).toBeDefined();
    expect(rowOf(await breakdown('os', 'period=today'), 'iOS')).toBeDefined();
    expect(rowOf(await breakdown('os', 'period=today'), 'Windows')).toBeDefined();
  });

  it('narrows every figure by the filters in the query string (ANDed)', async () => {
    const gb = await overview('period=today&country=GB');
    expect(gb.totals).toMatchObject({ visitors: 1, pageviews: 3 });
    const pages = await breakdown('page', 'period=today&country=US');
    expect(pages.map((row) => row.value).sort()).toEqual(['/Gallery', 'other']);
    const none = await overview('period=today&country=US&utm_source=newsletter');
    expect(none.totals.pageviews).toBe(0);
    const phone = await breakdown('country', 'period=today&device=mobile');
    expect(phone.map((row) => row.value)).toEqual(['US']);
  });

  it('exports breakdowns and games as CSV', async () => {
    const response = await admin.get('/api/analytics/breakdown/page?period=today&format=csv');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment/);
    const lines = String(response.body).trim().split('\r\n');
    expect(lines[0]).toBe('page,visitors,pageviews,time_seconds');
    expect(lines).toContain('/games,1,2,40');
    const games = await admin.get('/api/analytics/games?format=csv');
    expect(String(games.body).split('\r\n')[0]).toMatch(/^game,title,clicks,locked_clicks,plays/);
  });

  it('refuses bad queries with a clear 400 and non-admins with 401/403', async () => {
    expect((await admin.get('/api/analytics/breakdown/shoe-size')).status).toBe(400);
    expect((await admin.get('/api/analytics/overview?period=forever')).status).toBe(400);
    expect((await admin.get('/api/analytics/overview?period=custom&from=2026-01-01')).status).toBe(
      400,
    );
    expect(
      (await admin.get('/api/analytics/overview?period=custom&from=2024-01-01&to=2026-01-01'))
        .status,
    ).toBe(400);
    expect((await admin.get('/api/analytics/breakdown/page?limit=0')).status).toBe(400);
    expect((await app.client().get('/api/analytics/overview')).status).toBe(401);
    const user = (await signedInClient(app, 'user')).client;
    expect((await user.get('/api/analytics/games')).status).toBe(403);
    const bad = await app.client().post('/api/analytics/beacon', { type: 'play', gameId: 'Nope' });
    expect(bad.status).toBe(400);
  });

  it('counts a bot user agent and a document whose script never ran as bots, nowhere else', async () => {
    const before = await overview('period=today');
    const bot: Visitor = { ip: '66.249.66.1', userAgent: GOOGLEBOT };
    await view(bot, '/', { landing: '/', entry: true });
    await beacon(bot, { type: 'leave', path: '/', seconds: 3 });
    // a page document requested by a browser-looking client that never sends its page view
    app.deps.collector.document({ ip: '203.0.113.9', userAgent: CHROME_DESKTOP }, '/games');
    // and one whose script did run
    const real: Visitor = { ip: '203.0.113.10', userAgent: CHROME_DESKTOP };
    app.deps.collector.document({ ip: real.ip, userAgent: real.userAgent }, '/');
    await new Promise((resolve) => setTimeout(resolve, 50));
    await view(real, '/', { landing: '/', entry: true });
    await flush();
    clock += 61_000;
    await flush();

    const after = await overview('period=today');
    expect(after.totals.bots - before.totals.bots).toBe(2);
    expect(after.totals.visitors - before.totals.visitors).toBe(1);
    expect(after.totals.pageviews - before.totals.pageviews).toBe(1);
    expect(rowOf(await breakdown('browser', 'period=today'), 'Googlebot')).toBeUndefined();
    expect(rowOf(await breakdown('page', 'period=today'), '/games')?.visitors).toBe(1);
  });

  it('reports plays, play time, locked clicks and the funnel per game', async () => {
    await beacon(american, { type: 'play', gameId: 'Pong', seconds: 30 });
    await beacon(american, { type: 'play', gameId: 'Pong', seconds: 90 });
    await beacon(german, { type: 'locked', gameId: 'WolfScape' });
    await flush();
    const response = await admin.get('/api/analytics/games?period=today');
    expect(response.status).toBe(200);
    const { games, funnel } = AnalyticsGames.parse(response.body);
    expect(games.find((game) => game.gameId === 'Pong')).toMatchObject({
      plays: 2,
      playSeconds: 120,
      averagePlaySeconds: 60,
    });
    expect(games.find((game) => game.gameId === 'WolfScape')?.lockedClicks).toBe(1);
    expect(funnel.map((step) => step.step)).toEqual([
      'visit',
      'game-click',
      'sign-up',
      'subscription',
    ]);
    expect(funnel[0]?.count).toBeGreaterThanOrEqual(3);
  });

  it('counts a game the owner published from the admin (the database catalogue), not others', async () => {
    const gameId = await buildGame(admin, {
      id: `Own${Date.now().toString(36)}`,
      title: 'Own Game',
    });
    const beaconOf = () =>
      app
        .client()
        .post('/api/analytics/beacon', { type: 'play', gameId, seconds: 12 }, headersOf(german));
    // not published yet: no game to play
    expect((await beaconOf()).status).toBe(400);
    await buildGameBuild(
      admin,
      gameId,
      makeZip({ 'index.html': '<!DOCTYPE html><title>own</title>' }),
    );
    await publishGame(admin, gameId);
    expect((await beaconOf()).status).toBe(204);
    await flush();
    const { games } = AnalyticsGames.parse(
      (await admin.get('/api/analytics/games?period=today')).body,
    );
    expect(games.find((game) => game.gameId === gameId)).toMatchObject({
      title: 'Own Game',
      plays: 1,
      playSeconds: 12,
    });
  });

  it('shows realtime visitors of the last 5 minutes and their pages', async () => {
    const late: Visitor = { ip: '198.51.100.20', userAgent: CHROME_DESKTOP };
    await view(late, '/Tutorials', { landing: '/Tutorials', entry: true });
    await flush();
    const response = await admin.get('/api/analytics/realtime');
    const realtime = AnalyticsRealtime.parse(response.body);
    expect(realtime.pages.find((page) => page.path === '/Tutorials')?.visitors).toBe(1);
    clock += 6 * 60_000;
    const later = AnalyticsRealtime.parse((await admin.get('/api/analytics/realtime')).body);
    expect(later.pages.find((page) => page.path === '/Tutorials')).toBeUndefined();
  });

  it('rotates the salt daily: the same browser is a new visitor hash the next day, old salts go', async () => {
    const db = app.deps.database.db;
    const hashesOf = () =>
      rowsOf<{ day: string; visitor: string }>(
        db,
        sql`select day::text as day, visitor::text as visitor from analytics_events
            where kind = 1 and country = 'GB' and path = '/Gallery'`,
      );
    await view(german, '/Gallery', { landing: '/Gallery', entry: true });
    await flush();
    const day1 = await hashesOf();
    clock += 24 * 3_600_000;
    await view(german, '/Gallery', { landing: '/Gallery', entry: true });
    clock += 24 * 3_600_000;
    await view(german, '/Gallery', { landing: '/Gallery', entry: true });
    await flush();
    const all = await hashesOf();
    expect(all).toHaveLength(3);
    expect(new Set(all.map((row) => row.visitor)).size).toBe(3);
    expect(day1).toHaveLength(1);
    const salts = await rowsOf<{ day: string }>(
      db,
      sql`select day::text as day from analytics_salts order by day`,
    );
    // today's and yesterday's only
    expect(salts.map((row) => row.day)).toEqual(
      [-1, 0].map((offset) => new Date(clock + offset * 86_400_000).toISOString().slice(0, 10)),
    );
    // nothing stores the address or the user agent
    const text = JSON.stringify(
      await rowsOf(db, sql`select * from analytics_events`),
      (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value),
    );
    expect(text).not.toContain('81.2.69.160');
    expect(text).not.toContain('Mozilla');
  });

  it('rolls whole days up and answers the same from rollups as from raw events', async () => {
    // every view the dashboard shows: unfiltered, under one filter of each kind (rollups hold
    // those too) and under two or three (the days' segments), each overview and each breakdown
    const queries = [
      'period=7d',
      'period=7d&country=GB',
      'period=7d&os=Windows',
      'period=7d&device=mobile',
      'period=7d&browser=Safari',
      'period=7d&page=%2FGallery',
      'period=7d&exit=%2FGallery',
      'period=7d&entry=%2F',
      'period=7d&referrer=news.example.com',
      'period=7d&utm_source=newsletter',
      'period=7d&utm_medium=email',
      'period=7d&utm_campaign=launch',
      'period=7d&country=US&device=mobile',
      'period=7d&page=%2FGallery&device=mobile',
      'period=7d&exit=%2FGallery&browser=Safari',
      'period=7d&referrer=news.example.com&utm_source=newsletter&country=GB',
      'period=12mo&os=iOS&device=mobile',
      'period=7d&country=US&device=tablet',
    ];
    const dimensions = [
      'page',
      'entry',
      'exit',
      'referrer',
      'utm_source',
      'country',
      'device',
      'os',
    ];
    const everything = () =>
      Promise.all(
        queries.map(async (query) => ({
          query,
          overview: await overview(query),
          breakdowns: await Promise.all(dimensions.map((dimension) => breakdown(dimension, query))),
        })),
      );
    const raw = await everything();
    expect(raw[0]?.overview.totals.pageviews).toBeGreaterThan(0);
    // the filters match something, or the comparison below would prove little
    expect(raw.filter((view) => view.overview.totals.pageviews > 0).length).toBeGreaterThan(12);
    // views under two filters that match on days before today (segments answer for those)
    const today = new Date(clock).toISOString().slice(0, 10);
    const earlier = raw.filter(
      (view) =>
        view.query.split('&').length > 2 &&
        view.overview.series.some((point) => point.bucket < today && point.pageviews > 0),
    );
    expect(earlier.length).toBeGreaterThan(1);
    const rolled = await app.deps.siteAnalytics.rollUp();
    expect(rolled).toBeGreaterThan(0);
    const [rollupRows] = await rowsOf<{ filtered: number }>(
      app.deps.database.db,
      sql`select count(*)::int as filtered from analytics_daily where filter <> ''`,
    );
    expect(rollupRows?.filtered).toBeGreaterThan(0);
    expect(await everything()).toEqual(raw);
    const pages = await breakdown('page', 'period=7d');
    expect(rowOf(pages, '/Gallery')?.visitors).toBe(4);
    // and they come from the rollups and segments: with the rolled-up days' events gone, every
    // view answers the same, in this process (segments in memory) and in a new one
    const { db } = app.deps.database;
    const [segments] = await rowsOf<{ days: number }>(
      db,
      sql`select count(*)::int as days from analytics_segments where day < ${today}::date`,
    );
    expect(segments?.days).toBe(rolled);
    // days rolled up before segments existed get theirs at the next maintenance
    await db.execute(sql`delete from analytics_segments`);
    await app.deps.siteAnalytics.rollUp();
    const [rebuilt] = await rowsOf<{ days: number }>(
      db,
      sql`select count(*)::int as days from analytics_segments where day < ${today}::date`,
    );
    expect(rebuilt?.days).toBe(rolled);
    await db.execute(sql`delete from analytics_events where day < ${today}::date`);
    expect(await everything()).toEqual(raw);
    const fresh = createAnalyticsQueryService({
      db,
      repo: createEventsRepo(db),
      playingNow: () => Promise.resolve(new Map()),
      games: () => [],
      now: () => clock,
      // a budget no segment fits: each is read again when asked for, with the same answers
      segmentCacheBytes: 1,
    });
    for (const view of [...earlier, ...earlier]) {
      const query = AnalyticsQuery.parse(Object.fromEntries(new URLSearchParams(view.query)));
      expect(await fresh.overview(query)).toEqual(view.overview);
    }
    // a day rolled up again (here by another process, from its events now gone) is read again
    // by this process, which held the old copy
    const view = earlier.find((known) => known.query.startsWith('period=7d&'));
    if (!view) {
      throw new Error('no 7-day view under two filters matched earlier days');
    }
    const query = AnalyticsQuery.parse(Object.fromEntries(new URLSearchParams(view.query)));
    const busy = view.overview.series.find((point) => point.bucket < today && point.pageviews > 0);
    expect(busy).toBeDefined();
    await createEventsRepo(db).rollUp(busy?.bucket ?? today);
    const afterwards = await app.deps.siteAnalytics.overview(query);
    expect(afterwards.totals.pageviews).toBe(
      view.overview.totals.pageviews - (busy?.pageviews ?? 0),
    );
  });

  it('drops partitions older than the retention whole', async () => {
    const partitions = () =>
      app.deps.siteAnalytics.applyRetention(3650).then(() =>
        rowsOf<{ name: string }>(
          app.deps.database.db,
          sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
            join pg_class p on p.oid = i.inhparent where p.relname = 'analytics_events'`,
        ),
      );
    expect((await partitions()).length).toBeGreaterThanOrEqual(3);
    // keep today only
    const dropped = await app.deps.siteAnalytics.applyRetention(1);
    expect(dropped).toBeGreaterThanOrEqual(2);
    const left = await partitions();
    expect(left.map((row) => row.name)).toEqual([
      `analytics_events_${new Date(clock).toISOString().slice(0, 10).replaceAll('-', '')}`,
    ]);
    const old = await overview('period=30d');
    expect(old.series.slice(0, -1).every((point) => point.pageviews === 0)).toBe(true);
    const twoFilters = await overview('period=30d&country=US&device=mobile');
    expect(twoFilters.series.slice(0, -1).every((point) => point.pageviews === 0)).toBe(true);
    const [segments] = await rowsOf<{ days: number }>(
      app.deps.database.db,
      sql`select count(*)::int as days from analytics_segments`,
    );
    expect(segments?.days).toBe(0);
  });
});

describe('a tab that closes', () => {
  it('leaves Live Activity at once; one that vanishes still expires', async () => {
    const tab: Visitor = { ip: '192.0.2.44', userAgent: CHROME_DESKTOP };
    const visitorId = 'closingTabVisitor000001';
    const client = app.client();
    const active = async () =>
      ActiveUsersResponse.parse((await admin.get('/api/active-users')).body).anonymous.count;
    // earlier tests' guests have gone quiet
    clock += 80_000;
    const before = await active();
    expect(before).toBe(0);
    await client.post(
      '/api/anonymous-heartbeat',
      { currentPage: '/games', visitorId },
      headersOf(tab),
    );
    expect(await active()).toBe(before + 1);
    await beacon(
      tab,
      { type: 'leave', path: '/games', seconds: 12, last: true, visitorId },
      client,
    );
    expect(await active()).toBe(before);
    // a crashed tab sends nothing: it stays until its presence expires, as before
    await client.post(
      '/api/anonymous-heartbeat',
      { currentPage: '/games', visitorId },
      headersOf(tab),
    );
    expect(await active()).toBe(before + 1);
    clock += 80_000;
    expect(await active()).toBe(before);
  });

  it("does not undo the next page's heartbeat when a tab goes on to another page of the site", async () => {
    const tab: Visitor = { ip: '192.0.2.45', userAgent: CHROME_DESKTOP };
    const visitorId = 'navigatingTabVisitor0001';
    const client = app.client();
    const active = async () =>
      ActiveUsersResponse.parse((await admin.get('/api/active-users')).body).anonymous.currentPages;
    clock += 80_000;
    const heartbeat = (currentPage: string, tabId: string) =>
      client.post(
        '/api/anonymous-heartbeat',
        { currentPage, visitorId, tab: tabId },
        headersOf(tab),
      );
    await heartbeat('/', 'firstpage');
    // a full navigation: the next page's first heartbeat reaches the server before the old
    // page's pagehide beacon (which then believes it was the last tab)
    await heartbeat('/games', 'secondpage');
    await beacon(
      tab,
      { type: 'leave', path: '/', seconds: 3, last: true, visitorId, tab: 'firstpage' },
      client,
    );
    expect(await active()).toEqual({ '/games': 1 });
    // the page that beat last closes: gone at once
    await beacon(
      tab,
      { type: 'leave', path: '/games', seconds: 5, last: true, visitorId, tab: 'secondpage' },
      client,
    );
    expect(await active()).toEqual({});
    // a page load id that is not one is refused like any bad field
    const refused = await client.post(
      '/api/analytics/beacon',
      { type: 'leave', path: '/', seconds: 1, tab: 'Not One!' },
      headersOf(tab),
    );
    expect(refused.status).toBe(400);
  });
});
