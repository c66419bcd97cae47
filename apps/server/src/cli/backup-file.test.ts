import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { dataDirFrom, loadConfig, REPOSITORY_ROOT } from '../config.js';
import { backupFileFor } from './backup-file.js';

describe('path settings and the backup file', () => {
  it('reads a relative DATA_DIR from the repository root, as the server and every CLI do', () => {
    // the tests run in apps/server, as npm runs the backup and restore scripts
    const root = JSON.parse(readFileSync(path.join(REPOSITORY_ROOT, 'package.json'), 'utf8')) as {
      workspaces?: unknown;
    };
    expect(root.workspaces).toBeDefined();
    expect(dataDirFrom({ DATA_DIR: 'restored' })).toBe(path.join(REPOSITORY_ROOT, 'restored'));
    const config = loadConfig({
      DATA_DIR: 'restored',
      NODE_ENV: 'test',
      SESSION_SECRET: 'x'.repeat(32),
    });
    expect(config.dataDir).toBe(path.join(REPOSITORY_ROOT, 'restored'));
    expect(config.gamesHost.dir).toBe(path.join(REPOSITORY_ROOT, 'restored', 'games'));
    const own = loadConfig({
      DATA_DIR: '/srv/site',
      GAMES_DIR: 'builds',
      MEDIA_DIR: 'uploads',
      NODE_ENV: 'test',
      SESSION_SECRET: 'x'.repeat(32),
    });
    expect(own.gamesHost.dir).toBe(path.join(REPOSITORY_ROOT, 'builds'));
    expect(own.media.dir).toBe(path.join(REPOSITORY_ROOT, 'uploads'));
    expect(existsSync(path.join(REPOSITORY_ROOT, 'apps', 'server', 'restored'))).toBe(false);
  });

  it('writes a backup under DATA_DIR/backups unless --out names a file', () => {
    const file = backupFileFor([], '/home/dev/site', '/srv/site/data');
    expect(path.dirname(file)).toBe('/srv/site/data/backups');
    expect(path.basename(file)).toMatch(/^backup-\d{4}-\d\d-\d\dT[\d-]+Z\.tar\.gz$/);
    expect(backupFileFor(['--out', 'site.tar.gz'], '/home/dev/site', '/srv/site/data')).toBe(
      '/home/dev/site/site.tar.gz',
    );
    expect(() => backupFileFor(['--out'], '/home/dev/site', '/srv/site/data')).toThrow(/Usage/);
  });
});
