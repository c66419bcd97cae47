/**
 * Remembers the results of a pure string function, up to `maxEntries` (oldest dropped first).
 * Used for the HMACs on the heartbeat path: a tab sends the same token or visitor id every 30 s.
 */
export function memoizeBounded(
  fn: (input: string) => string,
  maxEntries: number,
): (input: string) => string {
  const cache = new Map<string, string>();
  return (input) => {
    const known = cache.get(input);
    if (known !== undefined) {
      return known;
    }
    const value = fn(input);
    if (cache.size >= maxEntries) {
      const oldest = cache.keys().next();
      if (!oldest.done) {
        cache.delete(oldest.value);
      }
    }
    cache.set(input, value);
    return value;
  };
}
