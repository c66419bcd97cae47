import { AsyncLocalStorage } from 'node:async_hooks';

import { pino, type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';

import { type LogSettings, readLogSettings } from './log-settings.js';

/**
 * The one logger of the server, its CLIs and tests (issue: operate). JSON lines in production
 * (and tests), readable lines in development; LOG_LEVEL and LOG_FORMAT are read once when this
 * module loads (lib/log-settings.ts, which config.ts reports on too), so every process honours them from its first line.
 *
 * Personal data and secrets never reach a line: known fields (cookies, authorization, passwords,
 * tokens, emails, addresses) are censored by path, and every line is scrubbed of email addresses
 * and of non-loopback IP addresses before it is written, whatever field or message held them.
 */

export type { Logger };

/** What a request's lines carry (the request id), wherever in the request they are written. */
export const requestContext = new AsyncLocalStorage<{ reqId: string }>();

const CENSORED = '[redacted]';

/** Whether a logger was made with a `reqId` binding (one answer per logger: bindings are fixed). */
const boundRequestId = new WeakMap<Logger, boolean>();
function carriesRequestId(instance: Logger): boolean {
  let carries = boundRequestId.get(instance);
  if (carries === undefined) {
    carries = 'reqId' in instance.bindings();
    boundRequestId.set(instance, carries);
  }
  return carries;
}

/** Fields that hold secrets or personal data, censored wherever they appear (one level deep). */
const SECRET_KEYS = [
  'password',
  'newPassword',
  'currentPassword',
  'token',
  'secret',
  'email',
  'cookie',
  'authorization',
  'ip',
  'remoteAddress',
  'x-forwarded-for',
  'set-cookie',
];
const REDACT_PATHS = [
  ...SECRET_KEYS.map((key) => `["${key}"]`),
  ...SECRET_KEYS.map((key) => `*["${key}"]`),
  'req.headers["cookie"]',
  'req.headers["authorization"]',
  'res.headers["set-cookie"]',
];

const EMAIL = /[\w.!#$%&'*+/=?^`{|}~-]+@[a-z\d](?:[a-z\d-]{0,61}[a-z\d])?(?:\.[a-z\d-]+)+/gi;
const IPV4 = /\b(?:\d{1,3}\.){3}\d{1,3}\b/g;
// IPv6 with a `::` or all eight groups (a time such as 12:30:45 is neither)
const IPV6 =
  /(?<![\w:])(?:[\da-f]{1,4}:){7}[\da-f]{1,4}(?![\w:])|(?<![\w:])(?:[\da-f]{1,4}:){1,6}:(?:[\da-f]{1,4}(?::[\da-f]{1,4}){0,5})?(?![\w:])/gi;

/** Loopback and unspecified addresses say where this process listens, not who visited. */
function isLocalAddress(address: string): boolean {
  return (
    address.startsWith('127.') || address === '0.0.0.0' || address === '::1' || address === '::'
  );
}

/** Removes email and (non-local) IP addresses from a written line. */
export function scrubLine(line: string): string {
  return line
    .replace(EMAIL, '[email]')
    .replace(IPV4, (address) => (isLocalAddress(address) ? address : '[ip]'))
    .replace(IPV6, (address) => (isLocalAddress(address) ? address : '[ip]'));
}

/** Where lines go: stdout unless a test captures them (lines are handed over whole). */
let target: DestinationStream;
const forwarding: DestinationStream = {
  write(line: string) {
    target.write(line);
  },
};

function defaultTarget(settings: LogSettings): DestinationStream {
  if (settings.format === 'pretty') {
    return pretty({
      sync: true,
      colorize: process.stdout.isTTY,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
      messageFormat: '{if module}[{module}] {end}{msg}',
    });
  }
  return pino.destination({ fd: 1, sync: true });
}

const settings = readLogSettings();
target = defaultTarget(settings);

/** The root logger. Modules take a child: `const log = logger.child({ module: 'mail' })`. */
export const logger: Logger = pino(
  {
    level: settings.level,
    base: { pid: process.pid },
    redact: { paths: REDACT_PATHS, censor: CENSORED },
    // every line written inside a request names it, once: the request log's own logger
    // (pino-http's child) already carries it as a binding
    mixin: (_object, _level, instance) => {
      const context = requestContext.getStore();
      return context && !carriesRequestId(instance) ? { reqId: context.reqId } : {};
    },
    hooks: { streamWrite: scrubLine },
  },
  forwarding,
);

/** A module's logger: its lines carry `module` (pretty output shows it as `[module]`). */
export function moduleLogger(module: string): Logger {
  return logger.child({ module });
}

/** Sets the level of every logger (children follow their root). */
export function setLogLevel(level: LogSettings['level']): void {
  logger.level = level;
}

export interface CapturedLogs {
  /** Every line written since the capture began, parsed. */
  lines(): Record<string, unknown>[];
  /** The lines at `level` or above (warn: 40, error: 50). */
  linesAtLeast(level: 'warn' | 'error'): Record<string, unknown>[];
  /** The raw text written, for "this never appears" checks. */
  text(): string;
  /** Puts the previous destination and level back. */
  restore(): void;
}

/**
 * Sends the lines to memory instead of stdout until `restore()` (tests), at `level` (default:
 * the current one).
 */
export function captureLogs(level?: LogSettings['level']): CapturedLogs {
  const previousTarget = target;
  const previousLevel = logger.level;
  let text = '';
  target = {
    write(line: string) {
      text += line;
    },
  };
  if (level) {
    logger.level = level;
  }
  const lines = () =>
    text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    lines,
    linesAtLeast: (minimum) =>
      lines().filter((line) => Number(line.level) >= (logger.levels.values[minimum] ?? 0)),
    text: () => text,
    restore() {
      target = previousTarget;
      logger.level = previousLevel;
    },
  };
}
