import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ApiError } from '@portfolio/types';

import { startTestApp, type TestApp, type TestClient } from '../../test/harness.js';
import { buildGame, signedInClient, uploadBuild } from '../../test/factories.js';
import { longNamesUnsupported } from '../../test/s3-server.js';
import { makeZip, someScript } from './test-zips.js';

/*
 * Zips whose paths the file system cannot hold as they are: each is refused with a
 * 400 that says what to change, never a 500 from unpacking or compressing.
 */

let app: TestApp;
let admin: TestClient;
let gamesDir: string;
let gameId: string;

beforeAll(async () => {
  gamesDir = mkdtempSync(path.join(tmpdir(), 'zip-paths-test-'));
  app = await startTestApp({
    gamesHost: {
      origin: 'http://games.test.localhost',
      port: 0,
      dir: gamesDir,
      uploadMaxBytes: 1024 * 1024,
      zipMaxFiles: 50,
      zipMaxUnpackedBytes: 2 * 1024 * 1024,
      zipMaxRatio: 200,
    },
  });
  admin = (await signedInClient(app, 'admin')).client;
  gameId = await buildGame(admin, { id: `Z${Date.now().toString(36)}`, title: 'Zip paths' });
});

afterAll(async () => {
  await app?.stop();
  rmSync(gamesDir, { recursive: true, force: true });
});

const PAGE = '<!DOCTYPE html><html><body><script src="game.js"></script></body></html>';
const SCRIPT = someScript('zip paths');

describe('zip paths the file system cannot hold', () => {
  const cases: Array<[string, Record<string, string>, RegExp]> = [
    [
      'a folder where the .br copy of a file goes',
      { 'index.html': PAGE, 'game.js': SCRIPT, 'game.js.br/readme.txt': 'x' },
      /folder "game\.js\.br".*"game\.js"/,
    ],
    [
      'a folder where the .gz copy of a file goes',
      { 'index.html': PAGE, 'game.js': SCRIPT, 'game.js.gz/readme.txt': 'x' },
      /folder "game\.js\.gz".*"game\.js"/,
    ],
    [
      'a folder name over 255 bytes',
      { 'index.html': PAGE, 'game.js': SCRIPT, [`${'d'.repeat(300)}/a.txt`]: 'x' },
      /longer than 252 bytes/,
    ],
    [
      'a file name over 255 bytes',
      { 'index.html': PAGE, [`${'f'.repeat(300)}.js`]: SCRIPT },
      /longer than 252 bytes/,
    ],
    [
      'a file name whose .br copy would be over 255 bytes',
      { 'index.html': PAGE, [`${'g'.repeat(250)}.js`]: SCRIPT },
      /longer than 252 bytes/,
    ],
    [
      'a path over 4,096 bytes',
      { 'index.html': PAGE, [`${`${'p'.repeat(200)}/`.repeat(21)}a.txt`]: 'x' },
      /path longer than 1,024 bytes/,
    ],
  ];

  it.each(cases)('refuses %s with 400 UNSAFE_PATH', async (_label, files, message) => {
    const response = await uploadBuild<ApiError>(admin, gameId, await makeZip(files));
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('UNSAFE_PATH');
    expect(response.body.error.message).toMatch(message);
  });

  const longNamesSkipped = longNamesUnsupported();
  if (longNamesSkipped) {
    console.warn(longNamesSkipped);
  }
  it.skipIf(longNamesSkipped !== undefined)(
    'still takes long names and deep paths that fit',
    async () => {
      const response = await uploadBuild<ApiError>(
        admin,
        gameId,
        await makeZip({
          'index.html': PAGE,
          'game.js': SCRIPT,
          [`${'n'.repeat(249)}.js`]: SCRIPT,
          [`${`${'q'.repeat(100)}/`.repeat(9)}a.txt`]: 'x',
          // a folder named like a copy of a file that is not there is only a folder
          'other.js.br/readme.txt': 'x',
        }),
      );
      expect(response.status).toBe(201);
    },
  );
});
