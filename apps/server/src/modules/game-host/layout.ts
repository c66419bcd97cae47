import path from 'node:path';

import type { BuildEngine } from '@portfolio/types/game-host';

/*
 * Where builds live, shared by the publisher (upload, versions) and the games origin's file
 * server. The games storage (lib/storage: GAMES_DIR, or the bucket's games/ prefix) holds keys
 *
 *   <gameId>/<version>/…                    one folder per uploaded version, never changed once
 *                                           live (a player keeps the files they started with);
 *                                           brotli/gzip siblings (<file>.br, <file>.gz) made at
 *                                           publish sit beside the files they compress
 *   <gameId>/thumbnail.<ext>                the uploaded card image (served at /<gameId>/thumbnail.<ext>)
 *   <gameId>/achievements/<hash>.<ext>      achievement icons
 *
 * and the local <GAMES_DIR>/.incoming/ holds uploads being streamed and unpacked (on a local
 * folder storage the same file system, so writing a version in is one rename).
 *
 * The catalogue (database) says which version of a game is live and who may play it; the file
 * server asks it through GameHostCatalogue.
 */

/** The storage keys of a version's files start with this. */
export function versionPrefix(gameId: string, version: number): string {
  return `${gameId}/${version}/`;
}

export function incomingDir(gamesDir: string): string {
  return path.join(gamesDir, '.incoming');
}

/** What the games origin needs to know about a game to serve its files. */
export interface HostedGame {
  access: 'public' | 'subscriber';
  /** The live version, null when none is (unpublished games are not served). */
  liveVersion: number | null;
  /** Every version still on disk (a player who started an older one keeps it for a while). */
  versions: readonly number[];
  /** The live build needs cross-origin isolation (threads): its pages get COEP. */
  needsThreads: boolean;
  /** The engine detected in each version of `versions` (how its own .br/.gz files are sent). */
  engines: Readonly<Record<number, BuildEngine>>;
}

/** The games origin's view of the catalogue; cached in memory and refreshed on every change. */
export interface GameHostCatalogue {
  find(gameId: string): HostedGame | undefined;
}
