// Many WebSocket sessions in one worker thread, for the scenarios that are about sessions rather than
// calls: `subscribe` (each session subscribes to one account and records when its notices arrive:
// ws-deposits), `idle` (each session logs in and then holds still: ws-idle), and for ws-exchange
// `poll` (each session is an exchange's poller: once per block interval it asks the newest history of
// each of its deposit accounts and records each new operation's block when it first sees it) and
// `watch` (each session subscribes to a group of accounts with one get_full_accounts: the watcher).
import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { idInstance } from '../src/chain/fc/object-id.js';

export interface SessionSpec {
  readonly mode: 'subscribe' | 'idle' | 'poll' | 'watch';
  readonly url: string;
  /** subscribe: one account name per session; idle: only its length counts */
  readonly accounts: readonly string[];
  /** poll and watch: the accounts of each session */
  readonly groups?: readonly (readonly string[])[];
  /** poll: ms between two rounds of a poller (the block interval) */
  readonly pollMs?: number;
  /** poll: operations asked per account and round */
  readonly pollLimit?: number;
}

/** What the pollers did: calls made and each call's latency in µs (for the histogram in the parent). */
export interface PollStats {
  calls: number;
  errors: number;
  latenciesUs: number[];
  elapsedMs: number;
}

/** [block number, arrival time in ms since the epoch, sub-millisecond] of each first notice per block */
export type Arrival = [number, number];

const spec = workerData as SessionSpec;
const sockets: WebSocket[] = [];
const arrivals: Arrival[] = [];
let failed = 0;

async function connect(): Promise<WebSocket> {
  const ws = new WebSocket(spec.url, { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  sockets.push(ws);
  return ws;
}

/** Records the arrival of each block a notice names that this session had not seen yet. */
function firstSightings(notice: string, seen: Set<number>): void {
  for (const m of notice.matchAll(/"block_num":(\d+)/g)) {
    const block = Number(m[1]);
    if (seen.has(block)) continue;
    seen.add(block);
    arrivals.push([block, performance.timeOrigin + performance.now()]);
  }
}

/**
 * One session: logs in, and with `accounts` subscribes to them with one get_full_accounts (a
 * ws-deposits subscriber holds one, a ws-exchange watcher a group) and records first sightings.
 */
async function open(accounts: readonly string[] | undefined, i: number): Promise<void> {
  const ws = await connect();
  const seen = new Set<number>();
  let replies = 0;
  const expected = accounts ? 3 : 1;
  await new Promise<void>((resolve) => {
    ws.on('message', (data) => {
      const text = data.toString();
      if (text.startsWith('{"method":"notice"')) {
        firstSightings(text, seen);
        return;
      }
      if (text.includes('"error"')) failed++;
      if (++replies === expected) resolve();
    });
    ws.send(JSON.stringify({ id: 1, method: 'call', params: [1, 'login', ['', '']] }));
    if (accounts) {
      ws.send(JSON.stringify({ id: 2, method: 'call', params: [0, 'set_subscribe_callback', [i + 1, false]] }));
      ws.send(JSON.stringify({ id: 3, method: 'call', params: [0, 'get_full_accounts', [accounts, true]] }));
    }
  });
}

const now = () => performance.timeOrigin + performance.now();
const pollStats: PollStats = { calls: 0, errors: 0, latenciesUs: [], elapsedMs: 0 };
const timers: NodeJS.Timeout[] = [];

/** One exchange poller: its accounts' newest history once per round; a new operation is a deposit seen. */
async function poller(accounts: readonly string[]): Promise<void> {
  const ws = await connect();
  ws.on('error', () => void failed++);
  const newest = new Map<string, number>();
  const pending = new Map<number, { account: string; sentAt: number; first: boolean }>();
  let nextId = 1;
  ws.on('message', (data) => {
    const reply = JSON.parse(data.toString()) as { id: number; result?: { id: string; block_num: number }[]; error?: unknown };
    const call = pending.get(reply.id);
    if (!call) return;
    pending.delete(reply.id);
    const at = now();
    pollStats.calls++;
    pollStats.latenciesUs.push(Math.round((at - call.sentAt) * 1000));
    if (!reply.result) {
      pollStats.errors++;
      return;
    }
    const seen = newest.get(call.account) ?? -1;
    let top = seen;
    for (const op of reply.result) {
      const n = idInstance(op.id);
      // the first round only sets the cursor: what was there before the run is not a deposit
      if (n > seen && !call.first) arrivals.push([op.block_num, at]);
      top = Math.max(top, n);
    }
    newest.set(call.account, top);
  });
  let first = true;
  const round = () => {
    for (const account of accounts) {
      const id = nextId++;
      pending.set(id, { account, sentAt: now(), first });
      ws.send(JSON.stringify({ id, method: 'call', params: ['history', 'get_relative_account_history', [account, 0, spec.pollLimit ?? 10, 0]] }));
    }
    first = false;
  };
  ws.send(JSON.stringify({ id: 0, method: 'call', params: [1, 'login', ['', '']] }));
  // pollers start spread over one interval, as independent clients would
  await new Promise((r) => setTimeout(r, Math.random() * (spec.pollMs ?? 1000)));
  round();
  timers.push(setInterval(round, spec.pollMs ?? 1000));
}

async function main(): Promise<void> {
  if (spec.mode === 'poll' || spec.mode === 'watch') {
    const groups = spec.groups ?? [];
    const started = now();
    await Promise.all(groups.map((g, i) => (spec.mode === 'poll' ? poller(g) : open(g, i)).catch(() => void failed++)));
    parentPort!.postMessage({ ready: sockets.length, failed });
    parentPort!.once('message', async () => {
      for (const t of timers) clearInterval(t);
      pollStats.elapsedMs = now() - started;
      for (const ws of sockets) ws.close();
      await new Promise((r) => setTimeout(r, 200));
      parentPort!.postMessage({ arrivals, failed, poll: pollStats });
    });
    return;
  }
  // Open in batches, so that the server sees a crowd arrive rather than a single burst.
  const batch = 200;
  for (let i = 0; i < spec.accounts.length; i += batch) {
    await Promise.all(spec.accounts.slice(i, i + batch).map((a, j) => open(spec.mode === 'subscribe' ? [a] : undefined, i + j).catch(() => void failed++)));
  }
  parentPort!.postMessage({ ready: sockets.length, failed });
  parentPort!.once('message', async () => {
    for (const ws of sockets) ws.close();
    await new Promise((r) => setTimeout(r, 200));
    parentPort!.postMessage({ arrivals, failed });
  });
}

main().catch((err: unknown) => parentPort!.postMessage({ error: (err as Error).message }));
