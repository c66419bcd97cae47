import type { AnalyticsDimension } from '@portfolio/types/analytics';

const integer = new Intl.NumberFormat('en-US');

/** A count with thousands separators, e.g. 12,345. */
export function formatCount(value: number): string {
  return integer.format(Math.round(value));
}

/** A share 0..1 as a whole percentage, e.g. 42%. */
export function formatShare(value: number): string {
  return `${Math.round(value * 100)}%`;
}

/** Seconds as '45s', '3m 05s' or '2h 10m'. */
export function formatSeconds(value: number): string {
  const seconds = Math.max(0, Math.round(value));
  if (seconds < 60) {
    return `${seconds}s`;
  }
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) {
    return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  }
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

export interface Change {
  /** '+12%', '−8%', '0%' or 'new' (nothing before). */
  text: string;
  direction: 'up' | 'down' | 'flat';
}

/** How a figure moved from the previous period. */
export function describeChange(current: number, previous: number): Change {
  if (previous === 0) {
    return current === 0 ? { text: '0%', direction: 'flat' } : { text: 'new', direction: 'up' };
  }
  const percent = Math.round(((current - previous) / previous) * 100);
  if (percent === 0) {
    return { text: '0%', direction: 'flat' };
  }
  return percent > 0
    ? { text: `+${percent}%`, direction: 'up' }
    : { text: `−${Math.abs(percent)}%`, direction: 'down' };
}

let regionNames: Intl.DisplayNames | null | undefined;

/** A country code as its English name ('DE' → 'Germany'); anything else as it came. */
export function countryName(code: string): string {
  if (!/^[A-Z]{2}$/.test(code)) {
    return code;
  }
  try {
    regionNames ??= new Intl.DisplayNames(['en'], { type: 'region' });
  } catch {
    regionNames = null;
  }
  return regionNames?.of(code) ?? code;
}

/** How a breakdown value reads on screen (the filter keeps the raw value). */
export function displayValue(dimension: AnalyticsDimension, value: string): string {
  return dimension === 'country' ? countryName(value) : value;
}
