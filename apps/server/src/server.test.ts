import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadConfig } from './config.js';
import { ListenError } from './server.js';
import { startTestApp } from './test/harness.js';

/** A newcomer whose PORT or PORT + 1 is taken is told which setting to change, in one line. */
describe('starting on a port that is taken', () => {
  let blocker: Server;
  let takenPort: number;

  beforeAll(async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    takenPort = (blocker.address() as { port: number }).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => blocker.close(resolve));
  });

  it('names GAMES_PORT when the games origin cannot listen', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'games-'));
    const defaults = loadConfig({ NODE_ENV: 'test', PORT: '0', GAMES_DIR: dir }).gamesHost;
    try {
      const starting = startTestApp({ gamesHost: { ...defaults, port: takenPort } });
      await expect(starting).rejects.toThrow(ListenError);
      await expect(starting).rejects.toThrow(
        `port ${takenPort} is already in use (the games origin; default PORT + 1): stop what uses it or start with another GAMES_PORT`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names PORT when the site cannot listen', async () => {
    const starting = startTestApp({ port: takenPort });
    await expect(starting).rejects.toThrow(
      `port ${takenPort} is already in use: stop what uses it or start with another PORT`,
    );
  });
});
