import type { AnalyticsBeacon } from '@portfolio/types/analytics';
import type { HeartbeatRequest, PageViewInfo, VisitInfo } from '@portfolio/types';
import { canonicalPagePath, pageViewPath } from '@portfolio/types/pages';

import { getVisitorId } from './visitor-id';

/**
 * Site analytics in the browser: which page view a heartbeat starts, the visit it
 * belongs to (kept in localStorage, so every tab shares it; a new visit after 30 minutes without
 * activity), and the pagehide beacon with the time on the page. No cookie, no third party.
 */
const VISIT_KEY = 'visit';
const TABS_KEY = 'tabs';
const VISIT_GAP_MS = 30 * 60_000;
/** A tab that has not beaten for this long is gone (crashed) and no longer keeps the browser here. */
const TAB_ALIVE_MS = 75_000;

interface Visit extends VisitInfo {
  at: number;
  /** Page views so far (one at the end = a bounce). */
  n: number;
}

/** This page load (PageLoadId): a leave names it, so the next page's heartbeat is not undone. */
const tabId = Math.random().toString(36).slice(2, 14) || '0';
let current: { path: string; start: number } | undefined;

function read<T>(key: string): T | undefined {
  try {
    return (JSON.parse(localStorage.getItem(key) ?? 'null') as T | null) ?? undefined;
  } catch {
    return undefined;
  }
}

function write(key: string, value: unknown) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // no storage: this tab's visit only
  }
}

/** Marks this tab alive (with every heartbeat), so a closing tab knows whether it is the last. */
export function markTabAlive(now = Date.now()): void {
  write(TABS_KEY, { ...read<Record<string, number>>(TABS_KEY), [tabId]: now });
}

/** The view a heartbeat for `path` starts, and the page just left with its seconds. */
export function startPageView(path: string, now = Date.now()) {
  let visit = read<Visit>(VISIT_KEY);
  const entry = !visit || now - visit.at > VISIT_GAP_MS;
  if (!visit || entry) {
    const query = new URLSearchParams(location.search);
    let referrer: string | undefined;
    try {
      referrer = new URL(document.referrer).hostname;
    } catch {
      // direct: no referrer
    }
    visit = {
      at: now,
      n: 0,
      landing: path,
      referrer: referrer === location.hostname ? undefined : referrer,
      utm_source: query.get('utm_source') || undefined,
      utm_medium: query.get('utm_medium') || undefined,
      utm_campaign: query.get('utm_campaign') || undefined,
    };
  }
  visit.at = now;
  visit.n++;
  write(VISIT_KEY, visit);
  const left = current && { path: current.path, seconds: (now - current.start) / 1000 };
  current = { path, start: now };
  const { at: _at, n: _n, ...info } = visit;
  const view: PageViewInfo = { ...info, entry };
  return { view, left };
}

/** The address the last page view was sent for: the next heartbeat for another starts one. */
let viewedPage: string | undefined;

/** A page view of `viewPath` (with it named when it says more than the page). */
function pageViewOf(viewPath: string, page: string, now: number) {
  const { view, left } = startPageView(viewPath, now);
  return { view: viewPath === page ? view : { ...view, path: viewPath }, left };
}

/**
 * A heartbeat's page as the site spells it, this page load, and site analytics' fields: the page
 * view if new, the open game. A game opened in the viewer (/games?play=<id>) or a gallery
 * project (/Gallery?project=<id>) is a page view of its own (pageViewPath).
 */
export function heartbeatFields(
  path: string,
  now = Date.now(),
): Pick<HeartbeatRequest, 'currentPage'> & Partial<HeartbeatRequest> {
  const page = canonicalPagePath(path).slice(0, 512);
  const viewPath = pageViewPath(path, location.search).slice(0, 512);
  markTabAlive(now);
  const game = new URLSearchParams(location.search).get('play');
  const fields = {
    currentPage: page,
    tab: tabId,
    ...(viewPath === viewedPage ? {} : pageViewOf(viewPath, page, now)),
    ...(game ? { game: game.slice(0, 64) } : {}),
  };
  viewedPage = viewPath;
  return fields;
}

/** Sends a beacon that outlives the page. */
export function sendBeacon(body: AnalyticsBeacon): void {
  navigator.sendBeacon?.(
    '/api/analytics/beacon',
    new Blob([JSON.stringify(body)], { type: 'application/json' }),
  );
}

/**
 * The tab is going away (pagehide): time on its page, the visit's exit, and whether it was the
 * browser's last tab (then the server drops it from Live Activity at once).
 */
export function leavePage(visitorId: string, now = Date.now()): void {
  if (!current) {
    return;
  }
  const { at: _at, n, ...info } = read<Visit>(VISIT_KEY) ?? { at: 0, n: 0 };
  const tabs = read<Record<string, number>>(TABS_KEY) ?? {};
  delete tabs[tabId];
  write(TABS_KEY, tabs);
  sendBeacon({
    ...info,
    type: 'leave',
    path: current.path,
    seconds: (now - current.start) / 1000,
    bounce: n === 1,
    last: !Object.values(tabs).some((at) => now - at < TAB_ALIVE_MS),
    visitorId,
    tab: tabId,
  });
  if (n) {
    write(VISIT_KEY, { ...info, n, at: now });
  }
}

// the tab going away says so at once (time on page, exit; Live Activity drops a last tab)
addEventListener('pagehide', () => leavePage(getVisitorId()));
