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
});
