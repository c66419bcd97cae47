import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** apps/server, found from this file whether it runs from src/ (tsx) or the dist/ bundle. */
function findServerRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) {
      throw new Error('apps/server/package.json not found');
    }
    dir = parent;
  }
  return dir;
}

export const SERVER_ROOT = findServerRoot();
/** Committed SQL migrations. */
export const MIGRATIONS_DIR = path.join(SERVER_ROOT, 'drizzle');
/** The built web app served on the same origin. */
export const DEFAULT_WEB_DIST = path.resolve(SERVER_ROOT, '../web/dist');
/** The game folders (packages/games/<GameId>/) and the game SDK (packages/games/sdk.js). */
export const DEFAULT_GAMES_DIR = path.resolve(SERVER_ROOT, '../../packages/games');
