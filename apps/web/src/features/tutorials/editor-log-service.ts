/** Monaco's log levels (its platform/log): Off, Trace, Debug, Info, Warning, Error. */
const LEVELS = { off: 0, trace: 1, debug: 2, info: 3, warning: 4, error: 5 } as const;

/** What Monaco throws when it cancels its own work: `CancellationError`, or an Error shaped so. */
export function isCancellation(value: unknown): boolean {
  return value instanceof Error && value.name === 'Canceled' && value.message === 'Canceled';
}

/**
 * The editor's log service (replacing Monaco's console logger, which prints the same at the same
 * level, info and above) minus cancellations. Monaco's clipboard service, when the browser calls
 * itself Safari, starts a clipboard write on every click and key press and cancels the previous
 * one; outside WebKit the cancelled write fails with the cancellation itself rather than
 * WebKit's NotAllowedError, which Monaco expects, so it logged "Canceled: Canceled" as an error
 * on every tap. A cancellation is Monaco stopping its own work, never a fault (its
 * unexpected-error handler drops them too).
 */
export function createEditorLogService() {
  let level: number = LEVELS.info;
  const listeners = new Set<(level: number) => void>();
  const allows = (wanted: number) => level !== LEVELS.off && level <= wanted;
  return {
    /** Monaco's Event: subscribe with a listener, get back what unsubscribes it. */
    onDidChangeLogLevel(listener: (level: number) => void) {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    },
    getLevel: () => level,
    setLevel(next: number) {
      if (next !== level) {
        level = next;
        listeners.forEach((listener) => listener(next));
      }
    },
    trace(...args: unknown[]) {
      if (allows(LEVELS.trace)) {
        console.log(...args);
      }
    },
    debug(...args: unknown[]) {
      if (allows(LEVELS.debug)) {
        console.log(...args);
      }
    },
    info(...args: unknown[]) {
      if (allows(LEVELS.info)) {
        console.log(...args);
      }
    },
    warn(...args: unknown[]) {
      if (allows(LEVELS.warning)) {
        console.warn(...args);
      }
    },
    error(message: unknown, ...args: unknown[]) {
      if (allows(LEVELS.error) && !isCancellation(message)) {
        console.error(message, ...args);
      }
    },
    flush() {},
    dispose() {
      listeners.clear();
    },
  };
}

/**
 * Services the editors use in place of Monaco's: they count only when the first editor is
 * created before anything else asks Monaco for a service (Monaco then starts them all at once).
 */
export const EDITOR_SERVICES = { logService: createEditorLogService() };
