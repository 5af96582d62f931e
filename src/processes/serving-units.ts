// What a serving front end is to the writer (serving-processes.ts): a process it forked
// (--processes N > 1) or a worker thread of its own process (--serving-threads N > 1). Both say the
// same messages (messages.ts) over their channel: a fork's IPC channel with `serialization:
// 'advanced'`, a Worker's MessagePort; both are structured clone, so an AppliedBlock's Maps and Sets
// cross either the same way.
//
// How they end differs. A process can be killed alone (SIGKILL), and the kernel closes its sockets. A
// thread cannot: Worker.terminate() of a thread that still holds uWebSockets.js sockets aborts the
// whole process (Node asserts, when a worker's event loop closes, that it holds no handles; uWS 20.30
// registers no clean-up of its own). So a thread is asked to stop and closes its sockets itself
// (serve-for-writer.ts); terminate() is the last resort, safe only once it has.
import { fork, type ChildProcess } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import type { ToServing, ToWriter } from './messages.js';

export type ServingKind = 'processes' | 'threads';

/** One serving front end as the writer starts, tells and watches it. */
export interface ServingUnit {
  /** the process' pid, or the thread's threadId */
  readonly id: number | undefined;
  /** whether a message sent now reaches it */
  readonly connected: boolean;
  send(message: ToServing): void;
  onMessage(listener: (message: ToWriter) => void): void;
  /** once it has ended and every message it sent has been read */
  onEnded(listener: (code: number | null, signal: NodeJS.Signals | null) => void): void;
  /** ends it now: SIGKILL for a process, terminate() for a thread (see the header) */
  kill(): void;
}

/** How each kind is named in the log, the metrics and the errors. */
export const NAMES = {
  processes: { one: 'serving process', many: 'serving processes', field: 'process', id: 'pid' },
  threads: { one: 'serving thread', many: 'serving threads', field: 'thread', id: 'threadId' },
} as const satisfies Record<ServingKind, { one: string; many: string; field: string; id: string }>;

/** A serving process: child_process.fork of `entry`, its output on the writer's own. */
export function forkedProcess(entry: URL): ServingUnit {
  const child: ChildProcess = fork(fileURLToPath(entry), [], { serialization: 'advanced', stdio: 'inherit' });
  return {
    id: child.pid,
    get connected() {
      return child.connected;
    },
    send: (message) => void child.send(message),
    onMessage: (listener) => void child.on('message', listener),
    // 'close' (the channel read to its end), not 'exit': a stopping process' last log lines may
    // still be in the channel when its exit is seen, and the writer may exit once all have ended.
    onEnded: (listener) => void child.once('close', listener),
    kill: () => void child.kill('SIGKILL'),
  };
}

/** A serving thread: a Worker running `entry` in this process; `failed` hears an error it did not catch. */
export function workerThread(entry: URL, failed: (err: Error) => void): ServingUnit {
  const worker = new Worker(fileURLToPath(entry));
  // threadId reads -1 once the thread has ended: the log names it by the id it had.
  const id = worker.threadId;
  let running = true;
  // Node reads what the thread posted before it emits 'exit': its last log lines come first.
  worker.once('exit', () => (running = false));
  // An error the thread did not catch ends it ('exit' follows). Once it serves, the thread catches its
  // own (serve-for-writer.ts); this is what fails before that, such as its modules not loading.
  worker.on('error', failed);
  return {
    id,
    get connected() {
      return running;
    },
    send: (message) => void (running && worker.postMessage(message)),
    onMessage: (listener) => void worker.on('message', listener),
    onEnded: (listener) => void worker.once('exit', (code) => listener(code, null)),
    kill: () => void worker.terminate(),
  };
}
