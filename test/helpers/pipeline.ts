// The real call pipeline and fair scheduler over a fake pool whose answers each test decides, with
// captured logs: for tests of layers and limits that need no worker threads or store.
import { captureLogs } from './logs.js';
import { buildConfig } from '../../src/config.js';
import { defaultAccessPolicy, type AccessPolicy } from '../../src/access.js';
import { UserSessions, type LoginServices } from '../../src/handlers/login-flow.js';
import { loginThrottle } from '../../src/handlers/login-throttle.js';
import type { Reply } from '../../src/session/session.js';
import type { CallPool } from '../../src/pool/pool.js';
import { fairScheduler } from '../../src/pool/scheduler.js';
import type { PoolAnswer, PoolTask } from '../../src/protocol/thread-messages.js';
import { buildPipeline } from '../../src/pipeline/pipeline.js';
import { connections } from '../../src/pipeline/connection.js';
import { FRONT_HANDLERS } from '../../src/handlers/index.js';
import type { FrontHandler, Services } from '../../src/handlers/types.js';
import { SubscriptionHub } from '../../src/subscriptions/hub.js';

export const replyText = (r: Reply): string | null => (r === null ? null : typeof r.body === 'string' ? r.body : new TextDecoder().decode(r.body));

/** A call in the fake pool, waiting for the test to answer it. */
export interface HeldCall {
  readonly task: PoolTask;
  answer(a: PoolAnswer): void;
}

export interface FakeNodeOptions {
  /** answers a call at once; without it, calls are held until the test answers them */
  readonly answer?: (t: PoolTask) => PoolAnswer;
  /** front-end handler tables to replace */
  readonly front?: Record<string, Record<string, FrontHandler>>;
  readonly options?: Record<string, string>;
  readonly level?: string;
  readonly workers?: number;
  /** the access policy (default: Core's, without a file) */
  readonly policy?: AccessPolicy;
  /** whether the node is over --max-buffered-bytes (default: never) */
  readonly memoryOver?: () => boolean;
}

/**
 * A node's pipeline over a fake pool: `tasks` lists every task sent to a "worker" (an array of
 * calls), `held` the calls waiting for an answer. `open()` opens a connection whose replies go to
 * `replies` (null where nothing is sent).
 */
export function fakeNode(opts: FakeNodeOptions = {}) {
  const config = buildConfig({ 'log-level': 'silent', ...opts.options });
  const { log, lines } = captureLogs(opts.level ?? 'debug');
  const tasks: PoolTask[][] = [];
  const held: HeldCall[] = [];
  // No cancel slots: the calls here are held or answered by the test, not stopped.
  const pool: Omit<CallPool, 'cancel' | 'cancelSlots'> = {
    workers: opts.workers ?? 2,
    busyWorkers: 0,
    workersUp: opts.workers ?? 2,
    replySlab: { slots: 0, inUse: 0, collected: 0, largePages: 0, largePagesInUse: 0 },
    runTask: (batch) => {
      tasks.push([...batch]);
      return Promise.all(
        batch.map((task) => (opts.answer ? Promise.resolve(opts.answer(task)) : new Promise<PoolAnswer>((resolve) => held.push({ task, answer: resolve })))),
      );
    },
    ready: async () => {},
    storeChanged: () => {},
    close: async () => {},
  };
  const scheduler = fairScheduler(pool, { maxQueued: config.maxQueuedCalls });
  const policy = opts.policy ?? defaultAccessPolicy();
  const login: LoginServices = { policy, throttle: loginThrottle(config), users: new UserSessions() };
  const services = { config, log, subscriptions: new SubscriptionHub(), policy, login } as unknown as Services;
  const front = { ...FRONT_HANDLERS, ...opts.front } as typeof FRONT_HANDLERS;
  const pipeline = buildPipeline({ config, log, front, scheduler, services, memoryOver: opts.memoryOver ?? (() => false) });
  const replies: (string | null)[] = [];
  const open = (transport: 'ws' | 'http' = 'ws', sink: (r: string | null) => void = (r) => replies.push(r)) =>
    connections(config, login, pipeline, log)(transport, undefined, '127.0.0.1', (r) => sink(replyText(r)));
  return { conn: open(), open, replies, tasks, held, lines, scheduler };
}

/** Lets the scheduler's end-of-turn fill and promise callbacks run. */
export const settle = () => new Promise<void>((r) => setImmediate(() => setImmediate(r)));
