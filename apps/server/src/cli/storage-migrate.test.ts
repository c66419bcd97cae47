import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SERVER_ROOT } from '../lib/paths.js';
import { useTestBucket } from '../test/test-bucket.js';

/*
 * The command as an owner runs it: settings from the environment, messages for bad ones, plain
 * progress lines when stderr is not a terminal, a summary, and its exit code.
 */

const CLI = path.join(SERVER_ROOT, 'src/cli/storage-migrate.ts');
const s3 = useTestBucket('migrate-cli');
const hasServer = s3.available;
let work: string;

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'migrate-cli-test-'));
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

function runCli(env: Record<string, string>, args: string[] = []) {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    SESSION_SECRET: 'x'.repeat(32),
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    ...env,
  };
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: SERVER_ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The settings (and the test server's credentials) of `bucket` there. */
const s3Env = (bucket = s3.settings().bucket) => s3.server().envFor(bucket);

describe('npm run storage:migrate, its settings', () => {
  it('says STORAGE must be s3, and what a bad --to is', async () => {
    const local = await runCli({ DATA_DIR: work, STORAGE: 'local' });
    expect(local.code).toBe(1);
    expect(local.stderr).toContain('STORAGE is not s3: storage:migrate copies between');
    const badTo = await runCli({ DATA_DIR: work }, ['--to', 'ftp']);
    expect(badTo.code).toBe(1);
    expect(badTo.stderr).toContain("--to must be 's3' or 'local', not 'ftp'");
  });

  it.skipIf(!hasServer)('names a missing bucket and missing folders', async () => {
    const noBucket = await runCli({ DATA_DIR: work, ...s3Env('no-such-bucket') });
    expect(noBucket.code).toBe(1);
    expect(noBucket.stderr).toContain("S3_BUCKET: the bucket 'no-such-bucket'");
    expect(noBucket.stderr).toContain('does not exist');
    const noFolders = await runCli({ DATA_DIR: path.join(work, 'nothing-here'), ...s3Env() });
    expect(noFolders.code).toBe(1);
    expect(noFolders.stderr).toMatch(/Nothing to copy: neither GAMES_DIR \(.+\) nor MEDIA_DIR/);
  });
});

describe.skipIf(!hasServer)('npm run storage:migrate, a run', () => {
  it('copies to the bucket with a line per file and a summary, then back with --to local', async () => {
    const dataDir = path.join(work, 'site');
    mkdirSync(path.join(dataDir, 'games/Cli/1'), { recursive: true });
    mkdirSync(path.join(dataDir, 'media'), { recursive: true });
    const wasm = randomBytes(200_000);
    writeFileSync(path.join(dataDir, 'games/Cli/1/index.html'), '<html>cli</html>');
    writeFileSync(path.join(dataDir, 'games/Cli/1/game.wasm'), wasm);
    writeFileSync(path.join(dataDir, 'media/photo.png'), randomBytes(1000));

    const first = await runCli({ DATA_DIR: dataDir, ...s3Env() });
    expect(first.stderr).toContain('3 files, 201 KB to check');
    expect(first.stderr).toContain('copied  games/Cli/1/game.wasm (200 KB)');
    expect(first.stdout).toContain('3 copied (201 KB), 0 skipped');
    expect(first.stdout).toContain('0 failed.');
    expect(first.code).toBe(0);

    const again = await runCli({ DATA_DIR: dataDir, ...s3Env() });
    expect(again.stdout).toContain('0 copied (0 bytes), 3 skipped');
    expect(again.code).toBe(0);

    const back = path.join(work, 'back');
    const reverse = await runCli({ DATA_DIR: back, ...s3Env() }, ['--', '--to', 'local']);
    expect(reverse.stdout).toContain('3 copied');
    expect(reverse.code).toBe(0);
    expect(readFileSync(path.join(back, 'games/Cli/1/game.wasm'))).toEqual(wasm);
  });

  it('exits with 1 and names the file when one cannot be copied, copying the rest', async () => {
    const dataDir = path.join(work, 'odd');
    mkdirSync(path.join(dataDir, 'games/Odd/1'), { recursive: true });
    writeFileSync(path.join(dataDir, 'games/Odd/1/index.html'), '<html>odd</html>');
    // a name that is no storage key (a backslash): the bucket cannot take it as it is
    writeFileSync(path.join(dataDir, 'games/Odd/1/back\\slash.js'), 'x');
    const bucket = await s3.server().bucket('migrate-cli-odd');
    const run = await runCli({ DATA_DIR: dataDir, ...s3Env(bucket.bucket) });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('MEDIA_DIR');
    expect(run.stderr).toMatch(/failed {2}games\/Odd\/1\/back\\slash\.js: Not a storage key/);
    expect(run.stdout).toContain('1 copied');
    expect(run.stdout).toContain('1 failed.');
    expect(run.stdout).toContain('Run the same command again');
  });
});
