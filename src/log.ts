// Logging: pino, one root logger per thread, child loggers with fixed binding names.
// Login parameters never reach a log line: the session logs the method name only, and the redact
// list below is the second line of defence for anything that carries credentials.
import { pino, type Logger } from 'pino';

export type { Logger };

export const BINDINGS = { conn: 'conn', api: 'api', method: 'method', worker: 'worker' } as const;

export function createLogger(level: string, bindings: Record<string, unknown> = {}): Logger {
  return pino({
    level,
    base: { ...bindings },
    redact: { paths: ['password', 'params', 'authorization', '*.password', '*.authorization'], censor: '[redacted]' },
  });
}
