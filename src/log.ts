// Logging: pino, one root logger per thread, child loggers with fixed binding names. JSON lines by
// default (for log collectors); `--log-format pretty` for people, through pino-pretty, loaded only then.
// Login parameters never reach a log line: the session logs the method name only, and the redact
// list below is the second line of defence for anything that carries credentials.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

export const BINDINGS = { conn: 'conn', api: 'api', method: 'method', worker: 'worker' } as const;

export type LogFormat = 'json' | 'pretty';

/** `destination`: where JSON lines go instead of stdout (a serving process of --processes sends them to the writer process). */
export function createLogger(level: string, bindings: Record<string, unknown> = {}, format: LogFormat = 'json', destination?: { write(line: string): void }): Logger {
  const options: LoggerOptions = {
    level,
    base: { ...bindings },
    redact: { paths: ['password', 'params', 'authorization', '*.password', '*.authorization'], censor: '[redacted]' },
  };
  if (destination) return pino(options, destination);
  return format === 'pretty' ? pino(options, prettyStream()) : pino(options);
}

/**
 * The kernel's id of the calling thread (Linux; undefined elsewhere), for the log lines that say a
 * thread started: an operator's `top -H`, and the bench, which splits CPU time by thread, tell the
 * front-end and worker threads apart by it.
 */
export function kernelThreadId(): number | undefined {
  try {
    return Number(readFileSync('/proc/thread-self/stat', 'utf8').split(' ', 1)[0]);
  } catch {
    return undefined; // not Linux
  }
}

/** pino-pretty's stream to stdout, in this thread (synchronous to set up; no transport thread). */
function prettyStream(): NodeJS.WritableStream {
  // Loaded on demand: a node logging JSON never loads it.
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
  return pretty({ translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l', ignore: 'pid,hostname' });
}

/**
 * Keeps a burst of like events from flooding the log: the first is logged at once, then at most one
 * line per `everyMs`, which says how many were held back since the line before.
 */
export class LogBudget {
  private lastAt = Number.NEGATIVE_INFINITY;
  private held = 0;

  constructor(private readonly everyMs: number) {}

  /**
   * An event at `now` (ms). Returns -1 when it is held back (counted), otherwise the number of
   * events held back before it: the caller logs this one now, with that number.
   */
  admit(now: number): number {
    if (now - this.lastAt < this.everyMs) {
      this.held++;
      return -1;
    }
    const held = this.held;
    this.held = 0;
    this.lastAt = now;
    return held;
  }

  /** The events held back since the last line, forgotten: for a closing line that says how many. */
  drain(): number {
    const held = this.held;
    this.held = 0;
    return held;
  }
}
