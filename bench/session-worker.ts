// Many WebSocket sessions in one worker thread, for the scenarios that are about sessions rather than
// calls: `subscribe` (each session subscribes to one account and records when its notices arrive:
// ws-deposits) and `idle` (each session logs in and then holds still: ws-idle).
import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

export interface SessionSpec {
  readonly mode: 'subscribe' | 'idle';
  readonly url: string;
  /** subscribe: one account name per session; idle: only its length counts */
  readonly accounts: readonly string[];
}

/** [block number, arrival time in ms since the epoch, sub-millisecond] of each first notice per block */
export type Arrival = [number, number];

const spec = workerData as SessionSpec;
const sockets: WebSocket[] = [];
const arrivals: Arrival[] = [];
let failed = 0;

async function open(account: string, i: number): Promise<void> {
  const ws = new WebSocket(spec.url, { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  sockets.push(ws);
  const seen = new Set<number>();
  let replies = 0;
  const expected = spec.mode === 'subscribe' ? 3 : 1;
  await new Promise<void>((resolve) => {
    ws.on('message', (data) => {
      const text = data.toString();
      if (text.startsWith('{"method":"notice"')) {
        const m = /"block_num":(\d+)/.exec(text);
        if (!m) return;
        const block = Number(m[1]);
        if (seen.has(block)) return;
        seen.add(block);
        arrivals.push([block, performance.timeOrigin + performance.now()]);
        return;
      }
      if (text.includes('"error"')) failed++;
      if (++replies === expected) resolve();
    });
    ws.send(JSON.stringify({ id: 1, method: 'call', params: [1, 'login', ['', '']] }));
    if (spec.mode === 'subscribe') {
      ws.send(JSON.stringify({ id: 2, method: 'call', params: [0, 'set_subscribe_callback', [i + 1, false]] }));
      ws.send(JSON.stringify({ id: 3, method: 'call', params: [0, 'get_full_accounts', [[account], true]] }));
    }
  });
}

async function main(): Promise<void> {
  // Open in batches, so that the server sees a crowd arrive rather than a single burst.
  const batch = 200;
  for (let i = 0; i < spec.accounts.length; i += batch) {
    await Promise.all(spec.accounts.slice(i, i + batch).map((a, j) => open(a, i + j).catch(() => void failed++)));
  }
  parentPort!.postMessage({ ready: sockets.length, failed });
  parentPort!.once('message', async () => {
    for (const ws of sockets) ws.close();
    await new Promise((r) => setTimeout(r, 200));
    parentPort!.postMessage({ arrivals, failed });
  });
}

main().catch((err: unknown) => parentPort!.postMessage({ error: (err as Error).message }));
