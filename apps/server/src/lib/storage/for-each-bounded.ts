/**
 * Runs `work` over `items`, at most `concurrency` at a time. After the first failure no item
 * starts; the ones under way are waited for, then that failure rejects (so a caller cleaning up
 * after it never races a write still in flight).
 */
export async function forEachBounded<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (next < items.length && !failure) {
      const item = items[next++];
      if (item !== undefined) {
        await work(item).catch((error: unknown) => {
          failure ??= { error };
        });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  if (failure) {
    throw failure.error;
  }
}
