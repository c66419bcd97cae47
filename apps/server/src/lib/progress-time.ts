/**
 * The time a player's progress is recorded at: the one the request names (progress kept from
 * playing as a guest keeps the time it happened), never after now (a browser's clock may run
 * ahead of ours) nor before `earliest` when given; now when the request names none.
 */
export function progressTime(requested: string | undefined, now: Date, earliest?: Date): Date {
  if (requested === undefined) {
    return now;
  }
  const at = new Date(requested);
  if (Number.isNaN(at.getTime()) || at > now) {
    return now;
  }
  if (earliest && at < earliest) {
    return earliest < now ? earliest : now;
  }
  return at;
}
