import {
  ANALYTICS_DIMENSIONS,
  ANALYTICS_PERIODS,
  AnalyticsQuery,
  type AnalyticsDimension,
  type AnalyticsPeriod,
} from '@portfolio/types/analytics';

/**
 * The analytics page's state, which lives in its URL: the period and the filters, in the same
 * query string format as the API's (`period=7d&country=DE&page=/games`), so the page's query is
 * what every call sends.
 */
export interface AnalyticsState {
  period: AnalyticsPeriod;
  /** Custom periods only: inclusive UTC days, YYYY-MM-DD. */
  from?: string;
  to?: string;
  /** One value per dimension at most, in the order they were added (Plausible's model). */
  filters: AnalyticsFilter[];
}

export interface AnalyticsFilter {
  dimension: AnalyticsDimension;
  value: string;
}

export const DEFAULT_PERIOD: AnalyticsPeriod = '30d';

export const PERIOD_LABELS: Record<AnalyticsPeriod, string> = {
  today: 'Today',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '12mo': 'Last 12 months',
  custom: 'Custom range',
};

export const DIMENSION_LABELS: Record<AnalyticsDimension, string> = {
  page: 'Page',
  entry: 'Entry page',
  exit: 'Exit page',
  referrer: 'Referrer',
  utm_source: 'UTM source',
  utm_medium: 'UTM medium',
  utm_campaign: 'UTM campaign',
  country: 'Country',
  device: 'Device',
  browser: 'Browser',
  os: 'OS',
};

export function isAnalyticsDimension(key: string): key is AnalyticsDimension {
  return (ANALYTICS_DIMENSIONS as readonly string[]).includes(key);
}

function isAnalyticsPeriod(value: string): value is AnalyticsPeriod {
  return (ANALYTICS_PERIODS as readonly string[]).includes(value);
}

export interface ReadResult {
  state: AnalyticsState;
  /** Parts of the address that were not understood and are ignored (for a notice). */
  ignored: string[];
}

/**
 * Reads the page's state from its query string. Whatever the API would refuse is left out and
 * named in `ignored`, so a hand-edited address still shows a page (a custom period with a bad
 * range falls back to the default period).
 */
export function readAnalyticsState(search: URLSearchParams | string): ReadResult {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const ignored: string[] = [];
  const filters: AnalyticsFilter[] = [];
  let period: AnalyticsPeriod = DEFAULT_PERIOD;
  let from: string | undefined;
  let to: string | undefined;

  for (const [key, value] of params) {
    if (key === 'period') {
      if (isAnalyticsPeriod(value)) {
        period = value;
      } else {
        ignored.push(`period=${value}`);
      }
    } else if (key === 'from') {
      from = value;
    } else if (key === 'to') {
      to = value;
    } else if (isAnalyticsDimension(key)) {
      const filter = { dimension: key, value };
      const isValid = AnalyticsQuery.safeParse({ [key]: value }).success;
      if (!isValid || filters.some((existing) => existing.dimension === key)) {
        ignored.push(`${key}=${value}`);
      } else {
        filters.push(filter);
      }
    } else {
      ignored.push(key);
    }
  }

  if (period !== 'custom') {
    // from/to mean nothing outside a custom period; the API ignores them too
    return { state: { period, filters }, ignored };
  }
  const custom = AnalyticsQuery.safeParse({ period, from, to });
  if (!custom.success || from === undefined || to === undefined) {
    ignored.push(`period=custom&from=${from ?? ''}&to=${to ?? ''}`);
    return { state: { period: DEFAULT_PERIOD, filters }, ignored };
  }
  return { state: { period, from, to, filters }, ignored };
}

/** The state as a query string without '?': period first, then from/to, then filters in order. */
export function toQueryString(state: AnalyticsState): string {
  const params = new URLSearchParams();
  params.set('period', state.period);
  if (state.period === 'custom' && state.from && state.to) {
    params.set('from', state.from);
    params.set('to', state.to);
  }
  for (const filter of state.filters) {
    params.set(filter.dimension, filter.value);
  }
  return params.toString();
}

/** Filters the view by a dimension's value; a filter on the same dimension is replaced. */
export function withFilter(
  state: AnalyticsState,
  dimension: AnalyticsDimension,
  value: string,
): AnalyticsState {
  const others = state.filters.filter((filter) => filter.dimension !== dimension);
  return { ...state, filters: [...others, { dimension, value }] };
}

export function withoutFilter(
  state: AnalyticsState,
  dimension: AnalyticsDimension,
): AnalyticsState {
  return { ...state, filters: state.filters.filter((filter) => filter.dimension !== dimension) };
}

/** Another period, keeping the filters. */
export function withPeriod(
  state: AnalyticsState,
  period: Exclude<AnalyticsPeriod, 'custom'>,
): AnalyticsState {
  return { period, filters: state.filters };
}

/** A custom period; the caller checks `customRangeError` first. */
export function withCustomRange(state: AnalyticsState, from: string, to: string): AnalyticsState {
  return { period: 'custom', from, to, filters: state.filters };
}

/** Most days a custom period may span (the contract's limit). */
export const MAX_CUSTOM_DAYS = 366;

const DAY_MS = 86_400_000;

/** Why a custom range would be refused, or null when it is fine. */
export function customRangeError(from: string, to: string): string | null {
  if (!from || !to) {
    return 'Choose both a start and an end date.';
  }
  const parsed = AnalyticsQuery.safeParse({ period: 'custom', from, to });
  if (!parsed.success) {
    return from > to ? 'The end date must not be before the start date.' : 'Enter valid dates.';
  }
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;
  if (days > MAX_CUSTOM_DAYS) {
    return `A custom range may span at most ${MAX_CUSTOM_DAYS} days.`;
  }
  return null;
}

/** The filter on a dimension, if any. */
export function filterValue(
  state: AnalyticsState,
  dimension: AnalyticsDimension,
): string | undefined {
  return state.filters.find((filter) => filter.dimension === dimension)?.value;
}
