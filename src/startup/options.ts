// The options in force, and what a reload (SIGHUP) may change of them: the reloadable options take
// effect at once, through a Config view that reads the running values; any other change is named as
// needing a restart and keeps its running value.
import { OPTIONS, type Config } from '../config.js';
import type { Logger } from '../log.js';

/** The options in force: what start-up read, with what reloads (SIGHUP) have applied. */
export interface RunningOptions {
  readonly current: Config;
  /** a Config that always shows the options in force: for the parts that read a reloadable option at each use */
  readonly live: Config;
  /** loggers made at start, whose level a reload sets too (sessions follow the root on their own) */
  readonly loggers: Logger[];
  reload(next: Config): { readonly applied: readonly string[]; readonly needRestart: readonly string[] };
}

export function runningOptions(config: Config, log: Logger): RunningOptions {
  let running = config;
  const loggers: Logger[] = [];
  return {
    get current() {
      return running;
    },
    live: liveConfig(() => running),
    loggers,
    reload(next) {
      const changed = changedOptions(running, next);
      const applied = changed.filter((name) => RELOADABLE_OPTIONS.has(name));
      const needRestart = changed.filter((name) => !RELOADABLE_OPTIONS.has(name));
      if (applied.includes('log-level')) {
        log.level = next.logLevel;
        for (const l of loggers) l.level = next.logLevel;
      }
      if (applied.length > 0) {
        const taken: Record<string, unknown> = { ...running };
        for (const name of applied) {
          const key = OPTIONS.find((o) => o.name === name)!.key;
          taken[key] = (next as unknown as Record<string, unknown>)[key];
        }
        running = Object.freeze(taken) as unknown as Config;
        log.info({ options: applied }, 'options reloaded');
      }
      if (needRestart.length > 0) log.warn({ options: needRestart }, 'options changed in the configuration take effect only after a restart; the running values stay');
      return { applied, needRestart };
    },
  };
}

/**
 * Options a running node takes from a reload (SIGHUP): the log level, the free space blocks need
 * (read at each block), and the per-call limits the front end reads at each call. Every other option is
 * read into the pipeline, the transport, the worker threads or the store when the node starts, so a
 * new value would apply to some parts and not others; those are reported as needing a restart. (The
 * access file is reloaded separately, and also when it changes on disk.) Worker threads keep the log
 * level they started with: they log only faults.
 */
export const RELOADABLE_OPTIONS: ReadonlySet<string> = new Set([
  'log-level',
  'min-free-disk-bytes',
  // read at each call by the pipeline's layers, the connection, the scheduler and the login throttle
  'max-json-depth',
  'max-pending-calls-per-connection',
  'max-queued-calls',
  'call-budget-ms',
  'max-ids-per-call',
  'max-calls-per-second',
  'max-unread-bytes-per-connection',
  'login-failures-before-delay',
  'login-delay-max-ms',
]);

/** A Config whose every field is read from `current()` when it is read: the running configuration. */
function liveConfig(current: () => Config): Config {
  const view = {};
  for (const key of Object.keys(current())) Object.defineProperty(view, key, { get: () => (current() as unknown as Record<string, unknown>)[key], enumerable: true });
  return Object.freeze(view) as Config;
}

/** The names of the options whose values differ between two configurations. */
export function changedOptions(a: Config, b: Config): string[] {
  const valueOf = (c: Config, key: string): unknown => (key.startsWith('apiLimits.') ? (c.apiLimits as Record<string, unknown>)[key.slice(10)] : (c as unknown as Record<string, unknown>)[key]);
  return OPTIONS.filter((o) => JSON.stringify(valueOf(a, o.key)) !== JSON.stringify(valueOf(b, o.key))).map((o) => o.name);
}
