import { ConfigError } from '../config.js';
import { moduleLogger } from '../lib/logger.js';

/** A refusal a command explains in one line (no stack). */
export class CliError extends Error {}

type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * Runs a command's `main` with its arguments (a `--` from npm left out). A refusal it expects
 * (CliError, ConfigError or one of `explained`) prints its message alone; anything else goes
 * through the logger with its stack (JSON or readable, as LOG_FORMAT says). Either way the exit
 * code is 1.
 */
export function runCommand(
  name: string,
  main: (args: string[]) => Promise<void>,
  explained: readonly ErrorClass[] = [],
): void {
  main(process.argv.slice(2).filter((arg) => arg !== '--')).catch((error: unknown) => {
    if (
      error instanceof Error &&
      [CliError, ConfigError, ...explained].some((kind) => error instanceof kind)
    ) {
      console.error(error.message);
    } else {
      moduleLogger(name).fatal({ err: error }, 'failed');
    }
    process.exitCode = 1;
  });
}
