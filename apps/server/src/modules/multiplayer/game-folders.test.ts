import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import { describe, expect, it } from 'vitest';

import { DEFAULT_GAMES_DIR } from '../../lib/paths.js';

/** The budget for one game with its assets. */
const MAX_GZIP_BYTES = 150 * 1024;

function filesOf(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesOf(path.join(folder, entry.name)) : [path.join(folder, entry.name)],
  );
}

describe.each(['WolfScape', 'RocketGame'])('the %s client folder', (gameId) => {
  const folder = path.join(DEFAULT_GAMES_DIR, gameId);
  const files = filesOf(folder);

  it('stays within 150 KB gzip with its assets', () => {
    const gzipped = files.reduce((sum, file) => sum + gzipSync(readFileSync(file)).length, 0);
    expect(gzipped).toBeLessThanOrEqual(MAX_GZIP_BYTES);
  });

  it('loads the SDK from its host and no inline script; Socket.IO comes through the SDK', () => {
    const html = readFileSync(path.join(folder, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    const sources = scripts.map((match) => /src="([^"]+)"/.exec(match[1] ?? '')?.[1]);
    // /sdk.js from the root: the same under /<gameId>/<version>/ and /g/<grant>/<gameId>/<version>/
    expect(sources).toContain('/sdk.js');
    // the site's Socket.IO client is loaded by GameSDK.connect from the site's origin
    expect(sources).not.toContain('/socket.io/socket.io.js');
    // the CSP allows scripts from 'self' only: no inline code, no other host
    expect(scripts.every((match) => (match[2] ?? '').trim() === '')).toBe(true);
    expect(sources.every((source) => source !== undefined && !/^(https?:)?\/\//.test(source))).toBe(
      true,
    );
  });
});
