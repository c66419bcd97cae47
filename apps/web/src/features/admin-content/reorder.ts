/** The list with the item at `from` moved to `to` (both clamped to the list). */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  if (from < 0 || from >= next.length) {
    return next;
  }
  const target = Math.max(0, Math.min(next.length - 1, to));
  const [moved] = next.splice(from, 1);
  if (moved !== undefined) {
    next.splice(target, 0, moved);
  }
  return next;
}

/** What a screen reader hears after a move: 'Moved ProjectX to position 1 of 4.' */
export function describeMove(title: string, position: number, count: number): string {
  return `Moved ${title} to position ${position} of ${count}.`;
}
