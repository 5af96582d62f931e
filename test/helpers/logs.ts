// A logger whose lines a test can wait for: the node's own record of an event (a slow client
// dropped, a worker restarted) is something to await instead of sleeping and hoping it happened.
import { pino, type Logger } from 'pino';

export interface CapturedLogs {
  readonly log: Logger;
  /** Every line so far, parsed. */
  readonly lines: Record<string, unknown>[];
  /** The first line (past or future) whose msg is `msg`; an error after `ms` so a missing event fails the test. */
  once(msg: string, ms?: number): Promise<Record<string, unknown>>;
  /** The first `n` lines (past or future) whose msg is `msg`, once there are that many; an error after `ms`. */
  times(msg: string, n: number, ms?: number): Promise<Record<string, unknown>[]>;
}

export function captureLogs(level = 'info'): CapturedLogs {
  const lines: Record<string, unknown>[] = [];
  const waiters = new Set<(line: Record<string, unknown>) => void>();
  const log = pino(
    { level },
    {
      write(text: string) {
        const line = JSON.parse(text) as Record<string, unknown>;
        lines.push(line);
        for (const w of waiters) w(line);
      },
    },
  );
  const times = (msg: string, n: number, ms = 10_000): Promise<Record<string, unknown>[]> => {
    const matching = () => lines.filter((l) => l.msg === msg);
    if (matching().length >= n) return Promise.resolve(matching().slice(0, n));
    return new Promise((resolve, reject) => {
      const waiter = (line: Record<string, unknown>) => {
        if (line.msg !== msg) return;
        const found = matching();
        if (found.length < n) return;
        clearTimeout(timer);
        waiters.delete(waiter);
        resolve(found.slice(0, n));
      };
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`${matching().length} of ${n} log lines '${msg}' within ${ms} ms`));
      }, ms);
      waiters.add(waiter);
    });
  };
  return {
    log,
    lines,
    times,
    once: async (msg, ms) => (await times(msg, 1, ms))[0]!,
  };
}
