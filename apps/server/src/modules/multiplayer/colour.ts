import { createHash } from 'node:crypto';

/** A stable hue (0–359) per user, so a player keeps their colour in every room and game. */
export function colourOf(userId: string): number {
  return createHash('sha1').update(userId).digest().readUInt16BE(0) % 360;
}
