import path from 'node:path';

import { BackupError } from '../modules/backup/archive.js';

export const USAGE = `Usage: npm run backup [-- --out FILE] [--no-files]
  --out FILE   default: DATA_DIR/backups/backup-<date>.tar.gz, outside the repository's files
  --no-files   the database only: leave the game and media files out (a bucket with
               versioning keeps them; restore then leaves the files where they are)`;

/**
 * --out is relative to where npm was started; by default the archive (and the session secret
 * beside it) goes under DATA_DIR (git ignores the default ./data), never into the folder npm runs in.
 */
export function backupFileFor(args: string[], cwd: string, dataDir: string): string {
  const at = args.indexOf('--out');
  if (at !== -1) {
    const value = args[at + 1];
    if (!value) {
      throw new BackupError(USAGE);
    }
    return path.resolve(cwd, value);
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return path.join(dataDir, 'backups', `backup-${stamp}.tar.gz`);
}
