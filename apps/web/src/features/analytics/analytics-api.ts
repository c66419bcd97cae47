import {
  AnalyticsBreakdown,
  AnalyticsGames,
  AnalyticsOverview,
  AnalyticsRealtime,
  type AnalyticsDimension,
} from '@portfolio/types/analytics';

import { http } from '../../lib/http';
import { toQueryString, type AnalyticsState } from './analytics-query';

/** Rows a breakdown card shows. */
export const BREAKDOWN_LIMIT = 10;
/** Rows an exported breakdown holds (the API's most). */
export const EXPORT_LIMIT = 1000;
/** How often the realtime figures refresh while shown. */
export const REALTIME_INTERVAL_MS = 10_000;

const BASE = '/api/analytics';

export function getOverview(state: AnalyticsState, signal?: AbortSignal) {
  return http.get(`${BASE}/overview?${toQueryString(state)}`, AnalyticsOverview, signal);
}

export function getBreakdown(
  dimension: AnalyticsDimension,
  state: AnalyticsState,
  signal?: AbortSignal,
) {
  return http.get(
    `${BASE}/breakdown/${dimension}?${toQueryString(state)}&limit=${BREAKDOWN_LIMIT}`,
    AnalyticsBreakdown,
    signal,
  );
}

export function getGames(state: AnalyticsState, signal?: AbortSignal) {
  return http.get(`${BASE}/games?${toQueryString(state)}`, AnalyticsGames, signal);
}

export function getRealtime(signal?: AbortSignal) {
  return http.get(`${BASE}/realtime`, AnalyticsRealtime, signal);
}

/** The address of a breakdown as a CSV download (every row up to the API's most). */
export function breakdownCsvUrl(dimension: AnalyticsDimension, state: AnalyticsState): string {
  return `${BASE}/breakdown/${dimension}?${toQueryString(state)}&limit=${EXPORT_LIMIT}&format=csv`;
}

/** The address of the games table as a CSV download. */
export function gamesCsvUrl(state: AnalyticsState): string {
  return `${BASE}/games?${toQueryString(state)}&format=csv`;
}
