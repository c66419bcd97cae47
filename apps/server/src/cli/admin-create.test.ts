import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';

import { openDatabase } from '../db/client.js';
import { sessions as sessionsTable } from '../db/schema.js';
import { createLocalInvalidationBus } from '../lib/invalidation-bus.js';
import { createAnalyticsRepo } from '../modules/analytics/dashboard/repo.js';
import { dayOf } from '../modules/analytics/days.js';
import { SERVER_ROOT } from '../lib/paths.js';
import { verifyPassword } from '../modules/auth/passwords.js';
import { createSessionService } from '../modules/auth/session-service.js';
import { createUsersRepo } from '../modules/users/repo.js';
import { insertUser } from '../test/factories.js';
import { uniqueName } from '../test/harness.js';

const CLI = path.join(SERVER_ROOT, 'src/cli/admin-create.ts');

const tempDirs: string[] = [];
function tempDataDir() {
  const dir = mkdtempSync(path.join(tmpdir(), 'admin-cli-test-'));
  tempDirs.push(dir);
  return dir;
}
afterAll(() => {
  tempDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
});

/** Runs the CLI as `npm run admin:create` would, always on embedded PGlite in `dataDir`. */
function runCli(
  dataDir: string,
  args: string[],
  stdin: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'test' };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.SESSION_SECRET;
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: SERVER_ROOT,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(stdin);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function openDataDir(dataDir: string) {
  return openDatabase({ dataDir: path.join(dataDir, 'pglite') });
}

describe('npm run admin:create', () => {
  it(
    'creates an admin, then promotes an existing user and resets their password',
    { timeout: 120_000 },
    async () => {
      const dataDir = tempDataDir();
      const admin = uniqueName('admin');
      const created = await runCli(dataDir, ['--', admin], 'first password\n');
      expect(created.stderr).not.toMatch(/error/i);
      expect(created.stdout).toContain(`Admin '${admin}' created.`);
      expect(created.code).toBe(0);

      const user = uniqueName('user');
      let database = await openDataDir(dataDir);
      try {
        const users = createUsersRepo(database.db);
        const row = await users.findByUsername(admin);
        expect(row?.role).toBe('admin');
        // the admin dashboard's new and total users count the account, as for a registration
        const today = dayOf(Date.now());
        const [day] = await createAnalyticsRepo(database.db).listDays(today, today);
        expect(day).toMatchObject({ newUsers: 1, totalUsers: 1 });
        expect(await verifyPassword(row?.passwordHash ?? '', 'first password')).toBe(true);
        const stranger = await insertUser(database.db, { username: user, passwordHash: 'unknown' });
        // signed in twice with the old password
        const sessions = createSessionService({
          db: database.db,
          secret: 'test-secret',
          bus: createLocalInvalidationBus(),
        });
        await sessions.create(stranger.id);
        await sessions.create(stranger.id);

        // while this process holds the embedded database, the CLI refuses to open it
        const refused = await runCli(dataDir, [user], 'second password\n');
        expect(refused.code).not.toBe(0);
        expect(refused.stderr).toMatch(/is in use by another process/);
      } finally {
        await database.close();
      }

      const promoted = await runCli(dataDir, [user.toUpperCase()], 'second password\r\n');
      expect(promoted.stdout).toContain(`User '${user}' is now an admin.`);
      expect(promoted.stdout).toContain('Signed out of 2 sessions.');
      expect(promoted.code).toBe(0);

      database = await openDataDir(dataDir);
      try {
        const row = await createUsersRepo(database.db).findByUsername(user);
        expect(row?.role).toBe('admin');
        expect(await verifyPassword(row?.passwordHash ?? '', 'second password')).toBe(true);
        const left = await database.db
          .select()
          .from(sessionsTable)
          .where(eq(sessionsTable.userId, row?.id ?? ''));
        expect(left).toHaveLength(0);
      } finally {
        await database.close();
      }
    },
  );

  it.each([
    ['a too short password', ['someone'], 'short\n', 'password: must be at least 8 characters'],
    ['no password', ['someone'], '', 'No password on standard input'],
    [
      'an invalid username',
      ['no spaces allowed'],
      'long enough password\n',
      'username: may contain only letters, digits, dot, dash and underscore',
    ],
    ['no username', [], 'long enough password\n', 'Usage: npm run admin:create -- <username>'],
  ])(
    'exits non-zero with a message for %s, before touching the database',
    async (_case, args, stdin, message) => {
      const dataDir = tempDataDir();
      const result = await runCli(dataDir, args, stdin);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(message);
      expect(existsSync(path.join(dataDir, 'pglite'))).toBe(false);
    },
  );
});
