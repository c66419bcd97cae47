/**
 * Fills the database with 30 days of demo users, visits and game clicks, so a first look at the
 * admin dashboard shows something. Run through `npm run seed:demo`; safe to run again.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';

import { loadConfig } from '../config.js';
import { CliError, runCommand } from './run-command.js';
import { openDatabase } from '../db/client.js';
import { DEMO_PREFIX, seedDemoData } from '../modules/analytics/dashboard/demo-data.js';
import { hashPassword } from '../modules/auth/passwords.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const pgliteDir = `${config.dataDir}/pglite`;
  if (!config.databaseUrl) {
    console.warn(
      `Using the embedded database in ${pgliteDir}. It allows one process at a time: stop any server using DATA_DIR=${config.dataDir} first.`,
    );
    // PGlite has no cross-process lock; postmaster.pid exists exactly while a process has it open
    const pidFile = path.join(pgliteDir, 'postmaster.pid');
    if (existsSync(pidFile)) {
      throw new CliError(
        `The embedded database is in use by another process. Stop it and retry (if none runs, delete ${pidFile}).`,
      );
    }
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: pgliteDir });
  try {
    // one hash for every demo user (argon2 is deliberately slow), of a password made for this
    // run: a known one would be an open door on a database that is ever put online
    const password = randomBytes(12).toString('base64url');
    const passwordHash = await hashPassword(password);
    const summary = await seedDemoData(database.db, { passwordHash });
    console.info(
      `Seeded ${summary.usersCreated} new demo users (${DEMO_PREFIX}*; their password, made for this run and shown only here: ${password}), ` +
        `${summary.daysWritten} days of visitor stats and ${summary.gameRows} game click rows.`,
    );
  } finally {
    await database.close();
  }
}

runCommand('seed:demo', main);
