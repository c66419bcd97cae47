import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

import type { MediaContext } from '../context.js';

const STALE_INCOMING_MS = 24 * 60 * 60 * 1000;

/** Removes work folders older than a day from MEDIA_DIR/.incoming; returns how many. */
export async function sweepIncoming({ incoming }: MediaContext, now: number): Promise<number> {
  const entries = await readdir(incoming).catch(() => []);
  let removed = 0;
  for (const entry of entries) {
    const folder = path.join(incoming, entry);
    const info = await stat(folder).catch(() => undefined);
    if (info && now - info.mtimeMs > STALE_INCOMING_MS) {
      await rm(folder, { recursive: true, force: true });
      removed += 1;
    }
  }
  return removed;
}
