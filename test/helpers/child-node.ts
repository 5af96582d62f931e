// The CLI as a child process, for tests that need a real process (kill -9, exit codes) rather than a
// node in the test's own process. Its JSON log lines on stdout are the events a test waits for.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { frontEndOptions } from './node.js';
import { alive } from './processes.js';
import { until } from './until.js';

export const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/cli.js');

export type LogLine = Record<string, unknown> & { msg?: string };

export interface ChildNode {
  readonly child: ChildProcess;
  readonly port: number;
  readonly httpUrl: string;
  /** Every log line so far, parsed. */
  readonly lines: LogLine[];
  /** What it wrote to stderr so far. */
  stderr(): string;
  /** The first log line (past or future) for which `match` holds; an error after `ms` or if the process exits. */
  line(match: (l: LogLine) => boolean, what: string, ms?: number): Promise<LogLine>;
  /**
   * How the process ended, once its stdout and stderr are read to the end. 'exit' alone can come
   * before the last lines it wrote are read: a test that looks at `lines` then may miss them.
   */
  readonly ended: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * `graphene-rpc serve` on an ephemeral port with `args` added (debug logs, so that blocks are
 * visible as 'produced block' lines); resolves once it logs that it is serving. `how` runs another
 * Node.js binary or another copy of the CLI (an installed package's bin).
 */
export async function serveChild(args: string[], how: { node?: string; cli?: string } = {}): Promise<ChildNode> {
  // TEST_SERVING_PROCESSES and TEST_SERVING_THREADS apply here too, unless the test names
  // --processes or --serving-threads itself.
  const named = Object.fromEntries(args.filter((a) => a === '--processes' || a === '--serving-threads').map((a) => [a.slice(2), '']));
  const processes = Object.entries(frontEndOptions(named))
    .filter(([, v]) => v !== '1')
    .flatMap(([k, v]) => [`--${k}`, v]);
  const child = spawn(how.node ?? process.execPath, [how.cli ?? CLI, 'serve', '--rpc-endpoint', '127.0.0.1:0', '--log-level', 'debug', ...processes, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const lines: LogLine[] = [];
  const waiters = new Set<() => void>();
  let exited = false;
  let rest = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop()!;
    // pino writes one JSON object a line; anything else is kept as text.
    for (const p of parts) if (p.trim()) lines.push(p.startsWith('{') ? (JSON.parse(p) as LogLine) : { text: p });
    for (const w of waiters) w();
  });
  // 'close', not 'exit': by then every line it wrote has been read.
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => {
      exited = true;
      for (const w of waiters) w();
      resolve({ code, signal });
    }),
  );
  const line = (match: (l: LogLine) => boolean, what: string, ms = 15_000): Promise<LogLine> =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = lines.find(match);
        if (!found && !exited) return;
        clearTimeout(timer);
        waiters.delete(check);
        if (found) resolve(found);
        else reject(new Error(`the node exited before logging ${what}`));
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no log line for ${what} within ${ms} ms`));
      }, ms);
      waiters.add(check);
      check();
    });
  try {
    // A start waits for the store and every worker: on a loaded machine with many child nodes
    // starting at once that takes far longer than a call; the bound only keeps a hang from lasting.
    const serving = await line((l) => l.msg === 'serving JSON-RPC over HTTP and WebSocket', 'serving', 150_000);
    const port = serving.port as number;
    return { child, port, httpUrl: `http://127.0.0.1:${port}/rpc`, lines, line, ended, stderr: () => stderr };
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${(err as Error).message}; stderr: ${stderr}`);
  }
}

/**
 * `kill -9` of the node's process, and once it has exited, of nothing more: its serving processes
 * (--processes) see their writer gone and exit by themselves. Resolves once they have too (within
 * 10 s), so that a test that then opens the store for writing finds no process of the node still
 * holding it: opened while a killed writer's serving processes still had it open, lmdb-js refused
 * it once with EINVAL.
 */
export async function killNode(node: ChildNode): Promise<void> {
  const { child } = node;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }
  const serving = node.lines.filter((l) => l.msg === 'serving process listening' && typeof l.pid === 'number').map((l) => l.pid as number);
  await until(() => !serving.some(alive), `the serving processes ${serving.join(', ')} gone after their writer`, 10_000);
}
