/**
 * Formatting shared by the web app and the server's command-line tools, so one build reads the
 * same size everywhere. No zod, no Node: safe for the web app's entry.
 */

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'] as const;

/** A size in decimal units ('1.5 MB'), as file managers and upload limits state them. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  if (unit === 0) {
    return `${value} ${value === 1 ? 'byte' : 'bytes'}`;
  }
  // 999.96 KB rounds to '1000.0': carry it to the next unit
  if (Number(value.toFixed(1)) >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${UNITS[unit]}`;
}
