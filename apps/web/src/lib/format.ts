/**
 * Formats a duration in seconds as 'Xh Ym', or 'Ym' under an hour; '0m' when empty or zero.
 */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds == null || !Number.isFinite(seconds) || seconds <= 0) {
    return '0m';
  }
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (hours === 0) {
    return `${minutes}m`;
  }
  return `${hours}h ${minutes}m`;
}

/** A timestamp as a local date and time, or the raw text when it is not a date. */
export function formatDateTime(timestamp: string): string {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? timestamp : date.toLocaleString();
}

/** A timestamp as a local date, 'N/A' when there is none. */
export function formatDate(timestamp: string | null): string {
  if (!timestamp) {
    return 'N/A';
  }
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? timestamp : date.toLocaleDateString();
}
