/**
 * Creates an admin, or makes an existing user admin and sets their password.
 * Run through `npm run admin:create -- <username>`; see USAGE below.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

import type { z } from 'zod';

import { Password, Username } from '@portfolio/types';

import { type Config, ConfigError, loadConfig } from '../config.js';
import { CliError } from './run-command.js';
import { moduleLogger } from '../lib/logger.js';
import { openDatabase } from '../db/client.js';
import { createDomainEventBus } from '../lib/events.js';
import { invalidationChannel } from '../lib/invalidation-bus.js';
import { connectRedis, waitForRedis } from '../lib/redis.js';
import { createAnalyticsRepo } from '../modules/analytics/dashboard/repo.js';
import { dayOf } from '../modules/analytics/days.js';
import { passwordProblem } from '../modules/auth/password-policy.js';
import { createAuthService } from '../modules/auth/service.js';
import { deleteUserSessions } from '../modules/auth/session-service.js';
import { createUsersRepo } from '../modules/users/repo.js';

const USAGE = `Usage: npm run admin:create -- <username>

Creates the user as admin, or makes an existing user admin, and sets the password
(which signs that user out everywhere).
The password is asked twice on a terminal, or read from the first line of standard input:
  printf '%s\\n' "$ADMIN_PASSWORD" | npm run admin:create -- <username>

Uses DATABASE_URL when set, else the embedded database in DATA_DIR (default ./data).
The embedded database allows one process at a time: stop the server using the same DATA_DIR first.`;

function parseOrFail<T extends z.ZodType>(schema: T, label: string, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new CliError(`${label}: ${result.error.issues[0]?.message ?? 'is not valid'}`);
  }
  return result.data;
}

/** PGlite has no cross-process lock; its postmaster.pid exists exactly while a process has it open. */
function assertEmbeddedDatabaseIsFree(pgliteDir: string, dataDir: string): void {
  const pidFile = path.join(pgliteDir, 'postmaster.pid');
  if (existsSync(pidFile)) {
    throw new CliError(
      `The embedded database in ${pgliteDir} is in use by another process (a server with DATA_DIR=${dataDir}?).\n` +
        'Stop that server and run this again: opening the database from two processes corrupts it.\n' +
        `If no server is running (it was killed), delete ${pidFile} and retry.`,
    );
  }
}

async function readFirstLine(): Promise<string> {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    return line;
  }
  throw new CliError('No password on standard input (expected it on the first line).');
}

/** Asks on the terminal without echoing what is typed. */
function askHidden(question: string): Promise<string> {
  let isMuted = false;
  const output = new Writable({
    write(chunk: unknown, _encoding, callback) {
      if (!isMuted && (typeof chunk === 'string' || chunk instanceof Uint8Array)) {
        process.stdout.write(chunk);
      }
      callback();
    },
  });
  const prompt = createInterface({ input: process.stdin, output, terminal: true });
  prompt.on('SIGINT', () => {
    prompt.close();
    process.stdout.write('\n');
    process.exit(130);
  });
  return new Promise((resolve) => {
    prompt.question(question, (answer) => {
      prompt.close();
      process.stdout.write('\n');
      resolve(answer);
    });
    // the question is already written: mute what follows (the typed characters)
    isMuted = true;
  });
}

async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    return readFirstLine();
  }
  const password = await askHidden('Password: ');
  parseOrFail(Password, 'password', password);
  if ((await askHidden('Repeat password: ')) !== password) {
    throw new CliError('Passwords do not match');
  }
  return password;
}

/** With REDIS_URL, running servers drop the user's cached sessions now, not within 10 minutes. */
async function announceInvalidation(config: Config, userId: string): Promise<void> {
  if (!config.redisUrl) {
    return;
  }
  const redis = connectRedis(config.redisUrl, 'admin-cli');
  try {
    await waitForRedis(redis);
    await redis.publish(invalidationChannel(config.redisPrefix), userId);
  } catch (error) {
    console.warn(
      'Could not reach Redis; running servers end those sessions within 10 minutes:',
      error instanceof Error ? error.message : error,
    );
  } finally {
    redis.disconnect();
  }
}

async function main(args: string[]): Promise<void> {
  if (args.includes('--help') || args.includes('-h')) {
    console.info(USAGE);
    return;
  }
  const positional = args.filter((arg) => arg !== '--');
  if (positional.length !== 1) {
    throw new CliError(USAGE);
  }
  const username = parseOrFail(Username, 'username', positional[0]);
  const config = loadConfig();
  const pgliteDir = `${config.dataDir}/pglite`;
  if (!config.databaseUrl) {
    assertEmbeddedDatabaseIsFree(pgliteDir, config.dataDir);
  }
  const password = parseOrFail(Password, 'password', await readPassword());
  const problem = passwordProblem(password, username);
  if (problem) {
    throw new CliError(problem);
  }

  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: pgliteDir });
  try {
    const auth = createAuthService({
      users: createUsersRepo(database.db),
      events: createDomainEventBus(),
    });
    const { user, created } = await auth.ensureAdmin(username, password, { resetPassword: true });
    if (created) {
      // the dashboard's new and total users count this account as they count a registration
      await createAnalyticsRepo(database.db).recordUserCountChange(dayOf(Date.now()), 1);
    }
    console.info(
      created ? `Admin '${user.username}' created.` : `User '${user.username}' is now an admin.`,
    );
    if (!created) {
      // a new password ends the sessions opened with the old one
      const ended = await deleteUserSessions(database.db, user.id);
      if (ended > 0) {
        await announceInvalidation(config, user.id);
        console.info(`Signed out of ${ended} session${ended === 1 ? '' : 's'}.`);
      }
    }
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof CliError || error instanceof ConfigError) {
    console.error(error.message);
  } else {
    // unexpected: the stack goes through the logger (JSON or readable, as LOG_FORMAT says)
    moduleLogger('admin:create').fatal({ err: error }, 'failed');
  }
  process.exitCode = 1;
});
