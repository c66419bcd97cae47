import type {
  AnalyticsBreakdown,
  AnalyticsDimension,
  AnalyticsGames,
  AnalyticsOverview,
  AnalyticsRealtime,
  AnalyticsRollupFailure,
} from '@portfolio/types/analytics';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { jsonResponse, renderApp, signedInAs, stubApi } from '../../test/render-app';
import { PAGES_NOTE } from './analytics-page';

vi.mock('../../lib/socket', () => ({
  createSocket: () => ({ connected: false, on: vi.fn(), off: vi.fn(), disconnect: vi.fn() }),
}));

const totals = (visitors: number) => ({
  visitors,
  visits: visitors + 2,
  pageviews: visitors * 3,
  bounceRate: 0.25,
  visitSeconds: 95,
  bots: 7,
});

function overview(visitors: number): AnalyticsOverview {
  return {
    range: { from: '2026-10-27', to: '2026-11-25', granularity: 'day' },
    previousRange: { from: '2026-09-27', to: '2026-10-26', granularity: 'day' },
    totals: totals(visitors),
    previousTotals: totals(10),
    series: [
      { bucket: '2026-11-24', visitors: 3, pageviews: 9 },
      { bucket: '2026-11-25', visitors: visitors - 3, pageviews: 12 },
    ],
    previousSeries: [
      { bucket: '2026-10-25', visitors: 4, pageviews: 5 },
      { bucket: '2026-10-26', visitors: 6, pageviews: 7 },
    ],
  };
}

const realtime: AnalyticsRealtime = { visitors: 2, pages: [{ path: '/games', visitors: 2 }] };

const games: AnalyticsGames = {
  games: [
    {
      gameId: 'Pong',
      title: 'Pong',
      clicks: 12,
      lockedClicks: 3,
      plays: 8,
      playSeconds: 480,
      averagePlaySeconds: 60,
      playingNow: 1,
    },
  ],
  funnel: [
    { step: 'visit', count: 100, dropOff: 0 },
    { step: 'game-click', count: 40, dropOff: 0.6 },
    { step: 'sign-up', count: 10, dropOff: 0.75 },
    { step: 'subscription', count: 2, dropOff: 0.8 },
  ],
};

/** Answers every breakdown with one row named after its dimension (narrowed when filtered). */
function breakdown(url: string): AnalyticsBreakdown {
  const [path = '', query = ''] = url.split('?');
  const dimension = path.split('/').pop() as AnalyticsDimension;
  const params = new URLSearchParams(query);
  const isFiltered = params.has('utm_source');
  const value =
    dimension === 'country'
      ? 'DE'
      : dimension === 'utm_source'
        ? 'newsletter'
        : `${dimension}-value`;
  return {
    dimension,
    rows: [{ value, visitors: isFiltered ? 1 : 5, pageviews: isFiltered ? 2 : 9 }],
  };
}

function stubAnalytics(
  now: AnalyticsRealtime = realtime,
  rollupFailures: AnalyticsRollupFailure[] = [],
) {
  const api = stubApi({
    ...signedInAs('root', 'admin'),
    'GET /api/analytics/realtime': () => jsonResponse(now),
    'GET /api/analytics/games': () => jsonResponse(games),
    'GET /api/active-users': () =>
      jsonResponse({
        authenticated: [],
        anonymous: { count: 0, currentPages: {} },
        totalActive: 0,
      }),
  });
  const original = api.fetchMock.getMockImplementation();
  api.fetchMock.mockImplementation((input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.startsWith('/api/analytics/overview')) {
      api.calls.push({ method: 'GET', url, body: undefined });
      return Promise.resolve(
        jsonResponse({ ...overview(url.includes('utm_source=') ? 4 : 20), rollupFailures }),
      );
    }
    if (url.startsWith('/api/analytics/breakdown/')) {
      api.calls.push({ method: 'GET', url, body: undefined });
      return Promise.resolve(jsonResponse(breakdown(url)));
    }
    return original ? original(input, init) : Promise.reject(new Error('no fetch'));
  });
  return api;
}

function figure(label: string) {
  const card = screen.getByText(label, { selector: 'dt' }).parentElement;
  if (!card) {
    throw new Error(`no card ${label}`);
  }
  return card;
}

describe('/admin/analytics', () => {
  it('says under Pages what counts as a page and what "other" holds', async () => {
    stubAnalytics();
    renderApp('/admin/analytics');
    const pages = await screen.findByRole('region', { name: 'Pages' });
    expect(pages).toHaveAccessibleDescription(PAGES_NOTE);
    expect(within(pages).getByText(/“other” holds the admin’s pages/)).toBeVisible();
    expect(PAGES_NOTE).toMatch(/Published posts, games open in the viewer \(\/games\?play=…\)/);
    // the other cards say nothing of pages
    expect(screen.getByRole('region', { name: 'Sources' })).not.toHaveAccessibleDescription();
  });

  it('shows the figures with the previous period, the chart, breakdowns, realtime and games', async () => {
    stubAnalytics();
    renderApp('/admin/analytics');
    expect(await screen.findByRole('heading', { name: 'Site Analytics', level: 1 })).toBeVisible();
    await waitFor(() => expect(within(figure('Unique Visitors')).getByText('20')).toBeVisible());
    expect(within(figure('Unique Visitors')).getByText('+100%')).toBeVisible();
    expect(within(figure('Unique Visitors')).getByText(/vs 10/)).toBeVisible();
    expect(within(figure('Bots Filtered')).getByText('7')).toBeVisible();
    expect(screen.getByRole('img', { name: /Visitors and page views/ })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Period' })).toHaveValue('30d');

    const countries = await screen.findByRole('table', { name: 'Countries' });
    expect(within(countries).getByRole('link', { name: 'Germany' })).toBeVisible();
    // one breakdown of a card at a time: the others are a button away
    expect(screen.queryByRole('table', { name: 'Operating Systems' })).not.toBeInTheDocument();
    const os = screen.getByRole('button', { name: 'Operating Systems' });
    expect(os).toHaveAttribute('aria-pressed', 'false');
    await userEvent.setup().click(os);
    expect(os).toHaveAttribute('aria-pressed', 'true');
    expect(await screen.findByRole('table', { name: 'Operating Systems' })).toBeVisible();
    expect(screen.queryByRole('table', { name: 'Devices' })).not.toBeInTheDocument();
    expect(
      await screen.findByText(
        (_, element) =>
          element?.tagName === 'P' && element.textContent === '2 visitors in the last 5 minutes',
      ),
    ).toBeVisible();
    const gamesTable = await screen.findByRole('table', { name: 'Plays by Game' });
    expect(within(gamesTable).getByRole('rowheader', { name: 'Pong' })).toBeVisible();
    expect(screen.getByText('75% drop-off')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Export CSV of Plays by Game' })).toHaveAttribute(
      'href',
      '/api/analytics/games?period=30d&format=csv',
    );
  });

  it('says which day’s summary failed and when it is tried again', async () => {
    stubAnalytics(realtime, [
      {
        day: '2026-11-24',
        message: 'no space left on device',
        failedAt: '2026-11-25T08:10:00.000Z',
        attempts: 2,
        retryAt: '2026-11-25T08:20:00.000Z',
      },
    ]);
    renderApp('/admin/analytics');
    expect(
      await screen.findByText(
        /The summary of 2026-11-24 failed at 08:10 UTC \(2 attempts\): no space left on device\. It is tried again at 08:20 UTC/,
      ),
    ).toBeVisible();
  });

  it('says so when the visitors of the last 5 minutes are on no page now (tabs closed)', async () => {
    stubAnalytics({ visitors: 1, pages: [] });
    renderApp('/admin/analytics');
    expect(
      await screen.findByText('None of them is on a page now: their tabs are closed.'),
    ).toBeVisible();
  });

  it('filters the whole view by a followed row, in the address, and removes the filter by its chip', async () => {
    const { calls } = stubAnalytics();
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    const user = userEvent.setup();
    const { router } = renderApp('/admin/analytics?period=7d');
    await user.click(await screen.findByRole('button', { name: 'UTM Sources' }));
    const sources = await screen.findByRole('table', { name: 'UTM Sources' });
    await user.click(within(sources).getByRole('link', { name: 'newsletter' }));

    await waitFor(() => expect(router.location.search).toBe('?period=7d&utm_source=newsletter'));
    await waitFor(() => expect(within(figure('Unique Visitors')).getByText('4')).toBeVisible());
    // the chips come into view and take the focus
    const chips = screen.getByRole('region', { name: 'Filters' });
    expect(chips).toHaveFocus();
    expect(scrolled.mock.contexts).toContain(chips);
    // bots have nothing to filter by: their count says it is the whole site's
    expect(within(figure('Bots Filtered (all traffic)')).getByText('7')).toBeVisible();
    // every call of the view carries the filter
    await waitFor(() =>
      expect(
        calls.filter(
          (call) =>
            call.url.startsWith('/api/analytics/breakdown/country') &&
            call.url.includes('utm_source=newsletter'),
        ),
      ).toHaveLength(1),
    );
    expect(
      calls.some((call) => call.url === '/api/analytics/games?period=7d&utm_source=newsletter'),
    ).toBe(true);
    expect(screen.getByRole('link', { name: 'Export CSV of Countries' })).toHaveAttribute(
      'href',
      '/api/analytics/breakdown/country?period=7d&utm_source=newsletter&limit=1000&format=csv',
    );

    await user.click(screen.getByRole('link', { name: 'Remove filter UTM source: newsletter' }));
    await waitFor(() => expect(router.location.search).toBe('?period=7d'));
    expect(screen.queryByRole('link', { name: /Remove filter/ })).not.toBeInTheDocument();
    expect(screen.getByText('Bots Filtered', { selector: 'dt' })).toBeVisible();
  });

  it('changes the period from the picker and checks a custom range before applying it', async () => {
    stubAnalytics();
    const user = userEvent.setup();
    const { router } = renderApp('/admin/analytics?country=DE');
    const period = await screen.findByRole('combobox', { name: 'Period' });
    await user.selectOptions(period, 'today');
    await waitFor(() => expect(router.location.search).toBe('?period=today&country=DE'));

    await user.selectOptions(screen.getByRole('combobox', { name: 'Period' }), 'custom');
    await user.type(screen.getByLabelText('From'), '2026-02-10');
    await user.type(screen.getByLabelText('To'), '2026-02-01');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The end date must not be before the start date.',
    );
    expect(router.location.search).toBe('?period=today&country=DE');

    await user.clear(screen.getByLabelText('To'));
    await user.type(screen.getByLabelText('To'), '2026-02-20');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(router.location.search).toBe(
        '?period=custom&from=2026-02-10&to=2026-02-20&country=DE',
      ),
    );
  });

  it('says which parts of a hand-edited address it ignores', async () => {
    stubAnalytics();
    renderApp('/admin/analytics?period=forever&colour=red');
    expect(await screen.findByText(/Ignored in the address: period=forever, colour/)).toBeVisible();
  });

  it('sends a signed-in non-admin away', async () => {
    stubApi(signedInAs('ann', 'user'));
    const { router } = renderApp('/admin/analytics');
    await waitFor(() => expect(router.location.pathname).toBe('/'));
  });
});
