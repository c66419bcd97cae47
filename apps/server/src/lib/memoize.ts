/**
 * Sets `key` in a Map kept to `maxEntries` in insertion order: the key moves to the newest place,
 * and the oldest entries are dropped to make room.
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, maxEntries: number): void {
  map.delete(key);
  while (map.size >= maxEntries) {
    const oldest = map.keys().next();
    if (oldest.done) {
      break;
    }
    map.delete(oldest.value);
  }
  map.set(key, value);
}

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
    setBounded(cache, input, value, maxEntries);
    return value;
  };
}
