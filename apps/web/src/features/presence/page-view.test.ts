import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { AnalyticsBeacon } from '@portfolio/types/analytics';

/** The module keeps the current page per tab: a fresh copy per test. */
async function freshModule() {
  vi.resetModules();
  return import('./page-view');
}

function beaconsOf(sendBeacon: ReturnType<typeof vi.fn>): AnalyticsBeacon[] {
  return (sendBeacon.mock.calls as Array<[string, Blob]>).map(
    ([, blob]) => JSON.parse(blobText.get(blob) ?? '{}') as AnalyticsBeacon,
  );
}
const blobText = new Map<Blob, string>();

describe('page views and the pagehide beacon', () => {
  let sendBeacon: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    localStorage.clear();
    sendBeacon = vi.fn(() => true);
    Object.defineProperty(navigator, 'sendBeacon', { value: sendBeacon, configurable: true });
    const RealBlob = Blob;
    vi.stubGlobal(
      'Blob',
      class extends RealBlob {
        constructor(parts: BlobPart[], options?: BlobPropertyBag) {
          super(parts, options);
          blobText.set(this, typeof parts[0] === 'string' ? parts[0] : '');
        }
      },
    );
    window.history.replaceState(null, '', '/?utm_source=newsletter&utm_campaign=launch');
    Object.defineProperty(document, 'referrer', {
      value: 'https://news.example.com/post',
      configurable: true,
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('starts a visit at landing with referrer host and campaign, and times each page', async () => {
    const { startPageView } = await freshModule();
    const first = startPageView('/', 1_000_000);
    expect(first.view).toEqual({
      entry: true,
      landing: '/',
      referrer: 'news.example.com',
      utm_source: 'newsletter',
      utm_campaign: 'launch',
    });
    expect(first.left).toBeUndefined();
    const second = startPageView('/games', 1_012_000);
    expect(second.view).toMatchObject({ entry: false, landing: '/', utm_source: 'newsletter' });
    expect(second.left).toEqual({ path: '/', seconds: 12 });
    // 30 minutes of nothing: a new visit
    const later = startPageView('/Gallery', 1_012_000 + 31 * 60_000);
    expect(later.view).toMatchObject({ entry: true, landing: '/Gallery' });
  });

  it('sends time on page, bounce and last tab on pagehide', async () => {
    const { leavePage, markTabAlive, startPageView } = await freshModule();
    markTabAlive(1_000_000);
    startPageView('/', 1_000_000);
    leavePage('visitor-id-0123456789', 1_030_000);
    expect(beaconsOf(sendBeacon)).toEqual([
      expect.objectContaining({
        type: 'leave',
        path: '/',
        seconds: 30,
        bounce: true,
        last: true,
        landing: '/',
        referrer: 'news.example.com',
      }),
    ]);
  });

  it('is not the last tab while another tab of the browser is alive', async () => {
    const other = await freshModule();
    other.markTabAlive(1_000_000);
    const { leavePage, markTabAlive, startPageView } = await freshModule();
    markTabAlive(1_000_000);
    startPageView('/', 1_000_000);
    startPageView('/games', 1_005_000);
    leavePage('visitor-id-0123456789', 1_010_000);
    expect(beaconsOf(sendBeacon)[0]).toMatchObject({ last: false, bounce: false, path: '/games' });
  });

  it('counts a game opened in the viewer and a gallery project as page views of their own', async () => {
    const { heartbeatFields } = await freshModule();
    window.history.replaceState(null, '', '/games');
    expect(heartbeatFields('/games', 1_000_000).view).toMatchObject({ landing: '/games' });
    window.history.replaceState(null, '', '/games?play=Pong');
    const game = heartbeatFields('/games', 1_004_000);
    expect(game).toMatchObject({
      currentPage: '/games',
      game: 'Pong',
      view: { path: '/games?play=Pong', entry: false },
      left: { path: '/games', seconds: 4 },
    });
    // the every-30-s heartbeats of the same game start nothing
    expect(heartbeatFields('/games', 1_034_000).view).toBeUndefined();
    window.history.replaceState(null, '', '/gallery?project=p1&media=2');
    const project = heartbeatFields('/gallery', 1_040_000);
    expect(project.currentPage).toBe('/Gallery');
    expect(project.view?.path).toBe('/Gallery?project=p1');
    expect(project.left).toEqual({ path: '/games?play=Pong', seconds: 36 });
    window.history.replaceState(null, '', '/Tutorials');
    const tutorials = heartbeatFields('/Tutorials', 1_050_000);
    expect(tutorials.view).not.toHaveProperty('path');
    expect(tutorials.left?.path).toBe('/Gallery?project=p1');
  });
});
