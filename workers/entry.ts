// The worker thread: piscina loads this file by URL. At load it freezes its copy of the config
// (structured clone drops frozenness) and opens the chain store once; then each task is one call.
//
// Imports only leaf modules (config types, errors, codec, store, API-set tables) and never the front end.
import { Piscina } from 'piscina';
import { deepFreeze } from '../src/config.js';
import { openChainStore } from '../src/chain/store.js';
import { decode } from '../src/protocol/codec.js';
import type { PoolAnswer, PoolTask, WorkerInit } from '../src/protocol/thread-messages.js';
import { RPC, protocolError, toWireError, isWireError } from '../src/errors.js';
import { ReplyWriter } from './reply-writer.js';
import { handlerFor } from './handlers/index.js';
import type { WorkerContext } from './context.js';
import { createLogger } from '../src/log.js';
import { threadId } from 'node:worker_threads';

const init = Piscina.workerData as WorkerInit;
const config = deepFreeze(init.config);
// Read-only: every write goes through the front end's chain writer, the store's one writer.
const store = openChainStore(config.dataDir, { readOnly: true });
Atomics.add(new Int32Array(init.ready), 0, 1);
const storeVersion = new Int32Array(init.storeVersion);
let seenVersion = Atomics.load(storeVersion, 0);

/** Starts the call on a fresh snapshot if the store changed since this worker last read it. */
function refreshSnapshot(): void {
  const v = Atomics.load(storeVersion, 0);
  if (v !== seenVersion) {
    seenVersion = v;
    store.root.resetReadTxn();
  }
}
const ctx: WorkerContext = { store, config };
const log = createLogger(config.logLevel, { worker: threadId }, config.logFormat);

/** One call: the finished reply bytes, or an error (with subscriptions when the call made some). */
async function runOne(task: PoolTask): Promise<PoolAnswer> {
  const handler = handlerFor(task.set, task.method);
  if (!handler) {
    // The front end routes only methods the registry gives the pool: this is a bug, not a client's fault.
    log.error({ api: task.set, method: task.method }, 'no worker handler for this call');
    return { error: protocolError(RPC.INTERNAL) };
  }
  const budgetMs = task.budgetMs ?? config.callBudgetMs;
  const out = new ReplyWriter({ maxBytes: config.maxReplyBytes, deadline: task.deadline ?? Number.POSITIVE_INFINITY, budgetMs });
  out.subscribing = task.subscribe === true;
  if (task.head !== undefined) out.text(task.head);
  try {
    // A call that waited past its deadline is not started.
    out.checkDeadline();
    // Handlers must await everything they start: an idle piscina worker blocks in Atomics.wait.
    await handler(ctx, task.params, out);
  } catch (err) {
    const wire = toWireError(err);
    if (!isWireError(err) && !(err as { wire?: unknown })?.wire) {
      // An unexpected failure: the caller gets -32603 without details; the details go to the log.
      log.error({ api: task.set, method: task.method, err }, 'call failed');
    }
    return { error: wire };
  }
  if (task.head !== undefined) out.text('}');
  const bytes = out.finish();
  if (out.subscribedIds.length > 0 || out.subscribedAccounts.length > 0) {
    return { bytes, subscriptions: { ids: out.subscribedIds, accounts: out.subscribedAccounts } };
  }
  return bytes;
}

/**
 * A batch of calls (the front end sends every call that arrived in one event-loop turn together,
 * so the thread hop is paid once per batch, not once per call). Answers come back in order; every
 * reply buffer is transferred, not copied.
 */
export default async function batch(taskBytes: Uint8Array): Promise<unknown> {
  let tasks: PoolTask[];
  try {
    tasks = decode<PoolTask[]>(taskBytes);
  } catch (err) {
    log.error({ err, bytes: taskBytes.byteLength }, 'a task could not be decoded; its calls get -32603');
    return [{ error: protocolError(RPC.INTERNAL) }];
  }
  refreshSnapshot();
  const answers: PoolAnswer[] = [];
  const buffers: ArrayBuffer[] = [];
  for (const task of tasks) {
    const a = await runOne(task);
    answers.push(a);
    const bytes = a instanceof Uint8Array ? a : 'bytes' in a ? a.bytes : undefined;
    if (bytes) buffers.push(bytes.buffer as ArrayBuffer);
  }
  return Piscina.move({ [Piscina.transferableSymbol]: buffers, [Piscina.valueSymbol]: answers } as never);
}
