// Issue 16's whole picture on loopback: a producing node, two followers of it, and HAProxy in front
// of the followers with the shipped deploy/haproxy.cfg (its addresses changed). A deposit watcher
// subscribes to its accounts' transfers through HAProxy and, whenever its connection is cut,
// reconnects through HAProxy and resumes from the last cursor it saw. 1,000 transfers go to 50
// deposit accounts while each follower is killed with SIGKILL once and started again on its own
// store. The watcher must end with every transfer exactly once, in chain order: nothing missed,
// nothing repeated, though it changed replicas in the middle.
//
// It needs Debian's haproxy (.ci/run installs it); without it the test is skipped and says so.
import test, { type ExecutionContext } from 'ava';
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import hdr from 'hdr-histogram-js';
import { DEV_WIF, op } from './helpers/chain.js';
import { serveChild, type ChildNode } from './helpers/child-node.js';
import { rpc, signedTx } from './helpers/tx.js';
import { tempDir } from './helpers/temp.js';
import { freePort, freePorts } from './helpers/ports.js';
import { haveHaproxy, SHIPPED_HAPROXY_CFG, startHaproxy, untilServed } from './helpers/haproxy.js';

const ACCOUNTS = 50;
const TRANSFERS = 1000;
/** transfers per transaction: 200 transactions, sent over about ten blocks */
const PER_TRANSACTION = 5;

interface Transfer {
  cursor: string;
  block_num: number;
  amount: { amount: number | string };
  to: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    const v = await probe().catch((err: unknown) => void (last = err));
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}${last ? ` (last: ${(last as Error).message})` : ''}`);
    await sleep(100);
  }
}

function accessFile(t: ExecutionContext): string {
  const file = path.join(tempDir(t, 'graphene-rpc-cluster-access-'), 'api-access.json');
  const apis = ['database_api', 'network_broadcast_api', 'history_api', 'deposits_api'];
  writeFileSync(file, JSON.stringify({ permission_map: [['*', { password_hash_b64: '*', password_salt_b64: '*', allowed_apis: apis }]] }));
  return file;
}

async function kill9(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

/**
 * The deposit watcher as an exchange runs it: one WebSocket session through the load balancer,
 * subscribe_transfers from its last cursor, and on any close a new session that resumes from it.
 * It keeps every transfer it is sent, as sent: exactly-once is what the test checks, not what the
 * watcher repairs.
 */
function watcher(url: string, accounts: string[], startCursor: string) {
  const received: { transfer: Transfer; at: number }[] = [];
  let cursor = startCursor;
  let stopped = false;
  let sessions = 0;
  let socket: WebSocket | undefined;
  const connect = (): Promise<void> =>
    new Promise((resolve) => {
      const ws = (socket = new WebSocket(url));
      let id = 0;
      const replies = new Map<number, (r: any) => void>();
      const call = (method: string, params: unknown[]) =>
        new Promise<any>((res) => {
          replies.set(++id, res);
          ws.send(JSON.stringify({ id, method, params }));
        });
      ws.on('error', () => undefined);
      ws.on('message', (data) => {
        const m = JSON.parse(data.toString());
        if (m.method === 'notice') {
          for (const batch of m.params[1] as Transfer[][]) {
            for (const tr of batch) {
              received.push({ transfer: tr, at: Date.now() });
              cursor = tr.cursor;
            }
          }
          return;
        }
        replies.get(m.id)?.(m);
        replies.delete(m.id);
      });
      ws.on('open', async () => {
        try {
          await call('call', [1, 'login', ['', '']]);
          const api = (await call('call', [1, 'deposits', []])).result as number;
          const r = await call('call', [api, 'subscribe_transfers', [7, accounts, cursor, false]]);
          if (r.error) throw new Error(JSON.stringify(r.error));
          sessions++;
        } catch {
          ws.terminate();
        }
        resolve();
      });
      ws.on('close', () => {
        resolve();
        if (!stopped) void sleep(100).then(connect);
      });
    });
  void connect();
  return {
    received,
    sessions: () => sessions,
    stop() {
      stopped = true;
      socket?.terminate();
    },
  };
}

(haveHaproxy ? test : test.skip)(
  `through HAProxy, a deposit watcher resuming by cursor sees each of ${TRANSFERS} transfers exactly once, in order, while each follower is killed with SIGKILL and restarted${haveHaproxy ? '' : ' — skipped: haproxy is not installed'}`,
  async (t) => {
    t.timeout(300_000);
    const access = accessFile(t);
    const producer = await serveChild(['--data-dir', tempDir(t, 'graphene-rpc-cluster-p-'), '--block-interval', '1', '--workers', '1', '--api-access', access]);
    t.teardown(() => kill9(producer.child));
    const upstream = `ws://127.0.0.1:${producer.port}/ws`;

    // Transactions expire after the head block's time: until the first block that is the genesis time.
    await until('the first block', async () => ((await rpc(producer.httpUrl, 'database', 'get_dynamic_global_properties', [])).result.head_block_number > 0 ? true : undefined));
    // The deposit accounts, registered on the producer and in a block before anyone follows.
    const names = Array.from({ length: ACCOUNTS }, (_, i) => `deposit-${i}`);
    for (let i = 0; i < ACCOUNTS; i += 10) {
      const trx = await signedTx(producer.httpUrl, names.slice(i, i + 10).map((n) => op.accountCreate(n)), [DEV_WIF]);
      const r = await rpc(producer.httpUrl, 'network_broadcast', 'broadcast_transaction', [trx]);
      t.is(r.result, null, JSON.stringify(r.error));
    }
    const ids = await until('the deposit accounts in a block', async () => {
      const reply = await rpc(producer.httpUrl, 'deposits', 'get_transfers', [names, null, 1]);
      if (reply.result === undefined) throw new Error(JSON.stringify(reply.error?.message));
      const accounts = (await rpc(producer.httpUrl, 'database', 'lookup_account_names', [names])).result as { id: string }[];
      return accounts.map((a) => a.id);
    });

    // Two followers, each on its own store and a fixed port, so that a restarted one is the same
    // HAProxy server.
    const followerPorts = await freePorts(2);
    const followerDirs = [tempDir(t, 'graphene-rpc-cluster-f1-'), tempDir(t, 'graphene-rpc-cluster-f2-')];
    const startFollower = (i: number) =>
      serveChild(['--data-dir', followerDirs[i]!, '--rpc-endpoint', `127.0.0.1:${followerPorts[i]}`, '--follow', upstream, '--workers', '1', '--api-access', access]);
    const followers: ChildNode[] = [await startFollower(0), await startFollower(1)];
    t.teardown(() => Promise.all(followers.map((f) => kill9(f.child))).then(() => undefined));

    // HAProxy from the shipped file in front of the two followers, checked every 200 ms (not 2 s) so
    // that the test does not wait on the checks' pace.
    t.regex(SHIPPED_HAPROXY_CFG, /on-marked-down shutdown-sessions/);
    const proxy = startHaproxy(t, { front: await freePort(), servers: followerPorts, inter: '200ms' });
    const front = proxy.front;
    await untilServed(proxy, `http://127.0.0.1:${front}/ready`);

    // "From now": the cursor after the head, before the first transfer.
    const start = (await rpc(`http://127.0.0.1:${front}/rpc`, 'deposits', 'get_transfers', [names, null, 1])).result.next_cursor as string;
    const w = watcher(`ws://127.0.0.1:${front}/ws`, names, start);
    t.teardown(() => w.stop());
    await until('the watcher subscribed', async () => (w.sessions() > 0 ? true : undefined));

    // 1,000 transfers of distinct amounts (1 … 1,000), sent to the producer at about 20 transactions
    // a second; each follower is killed a third and two thirds of the way, and started again.
    const restarted: Promise<void>[] = [];
    const transactions = TRANSFERS / PER_TRANSACTION;
    for (let k = 0; k < transactions; k++) {
      const ops = Array.from({ length: PER_TRANSACTION }, (_, j) => {
        const n = k * PER_TRANSACTION + j;
        return op.transfer('1.2.6', ids[n % ACCOUNTS]!, n + 1);
      });
      const r = await rpc(producer.httpUrl, 'network_broadcast', 'broadcast_transaction', [await signedTx(producer.httpUrl, ops, [DEV_WIF], { expiresIn: 600 })]);
      t.is(r.result, null, JSON.stringify(r.error));
      for (const [i, at] of [[0, Math.floor(transactions / 3)], [1, Math.floor((2 * transactions) / 3)]] as const) {
        if (k !== at) continue;
        await kill9(followers[i]!.child);
        t.log(`follower ${i + 1} killed after ${(k + 1) * PER_TRANSACTION} transfers`);
        restarted.push(
          sleep(1000)
            .then(() => startFollower(i))
            .then((f) => void (followers[i] = f)),
        );
      }
      await sleep(50);
    }
    await Promise.all(restarted);
    const received = await until(`all ${TRANSFERS} transfers at the watcher`, async () => (w.received.length >= TRANSFERS ? w.received : undefined), 120_000).catch(() => w.received);
    // A little longer: a duplicate would arrive now.
    await sleep(1500);
    w.stop();

    const amounts = w.received.map((r) => Number(r.transfer.amount.amount));
    const seen = new Set(amounts);
    const missed = TRANSFERS - [...seen].filter((a) => a >= 1 && a <= TRANSFERS).length;
    const duplicated = amounts.length - seen.size;
    let outOfOrder = 0;
    for (let i = 1; i < w.received.length; i++) if (w.received[i]!.transfer.cursor <= w.received[i - 1]!.transfer.cursor) outOfOrder++;
    t.is(missed, 0, 'missed');
    t.is(duplicated, 0, 'duplicated');
    t.is(outOfOrder, 0, 'out of chain order');
    t.deepEqual(amounts, Array.from({ length: TRANSFERS }, (_, i) => i + 1), 'chain order is the order they were sent in');
    t.true(w.sessions() >= 2, `the watcher changed replicas (${w.sessions()} sessions)`);

    // Delays from the producer's block to the watcher, and the longest silence.
    const produced = new Map<number, number>();
    for (const l of producer.lines) if (l.msg === 'produced block' && typeof l.block === 'number') produced.set(l.block, l.time as number);
    const delay = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 600_000, numberOfSignificantValueDigits: 3 });
    for (const r of received) {
      const at = produced.get(r.transfer.block_num);
      if (at !== undefined) delay.recordValue(Math.max(1, r.at - at));
    }
    let gap = 0;
    for (let i = 1; i < received.length; i++) gap = Math.max(gap, received[i]!.at - received[i - 1]!.at);
    t.log(`${received.length} transfers in ${w.sessions()} watcher sessions; notice delay p50 ${delay.getValueAtPercentile(50)} ms, p99 ${delay.getValueAtPercentile(99)} ms; longest gap ${gap} ms`);
    t.is(proxy.proxy.exitCode, null, proxy.stderr());
  },
);
