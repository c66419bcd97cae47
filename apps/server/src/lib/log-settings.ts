import { z } from 'zod';

export const LogLevel = z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']);
export const LogFormat = z.enum(['json', 'pretty']);

export interface LogSettings {
  level: z.infer<typeof LogLevel>;
  format: z.infer<typeof LogFormat>;
}

/**
 * LOG_LEVEL and LOG_FORMAT, read when the logger loads (before the rest of the configuration, in
 * CLIs too). Defaults: info (warn under NODE_ENV=test or vitest, so test runs stay quiet); JSON
 * lines, readable ones in development. An invalid value falls back here and is reported by
 * loadConfig.
 */
export function readLogSettings(source: NodeJS.ProcessEnv = process.env): LogSettings {
  const isTest = source.NODE_ENV === 'test' || Boolean(source.VITEST);
  const isDevelopment = !isTest && (source.NODE_ENV ?? 'development') === 'development';
  const level = LogLevel.safeParse(source.LOG_LEVEL || undefined);
  const format = LogFormat.safeParse(source.LOG_FORMAT || undefined);
  return {
    level: level.success ? level.data : isTest ? 'warn' : 'info',
    format: format.success ? format.data : isDevelopment ? 'pretty' : 'json',
  };
}
