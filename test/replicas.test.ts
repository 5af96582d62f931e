// Replicas added to and removed from HAProxy at run time, through the admin socket the shipped
// deploy/haproxy.cfg declares, as its backend's comment tells an operator to: a replica drained
// (no new sessions, its own kept), then taken out (its sessions cut, so that their clients reconnect
// to another), a new replica added and sent new sessions. Through all of it the sessions on the
// replica that stays are never cut and never miss an answer.
//
// It needs Debian's haproxy (.ci/run installs it); without it the test is skipped and says so.
import test from 'ava';
import WebSocket from 'ws';
import { serveChild, type ChildNode } from './helpers/child-node.js';
import { haveHaproxy, startHaproxy, untilServed } from './helpers/haproxy.js';
import { parsePromText, valueOf } from '../bench/prom-text.js';
import { freePort, freePorts } from './helpers/ports.js';
import { tempDir } from './helpers/temp.js';
import { rpc } from './helpers/tx.js';
import { until } from './helpers/until.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A client session through the proxy: logged in, then one call every 50 ms, each answer checked. */
interface Session {
  answered: number;
  errors: string[];
  closed: boolean;
  stop(): void;
}

async function session(url: string): Promise<Session> {
  const ws = new WebSocket(url);
  const s: Session = { answered: 0, errors: [], closed: false, stop: () => ws.terminate() };
  let id = 0;
  const waiting = new Map<number, (m: { result?: unknown; error?: unknown }) => void>();
  const call = (method: string, params: unknown[]) =>
    new Promise<{ result?: unknown; error?: unknown }>((resolve) => {
      waiting.set(++id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  ws.on('message', (data) => {
    const m = JSON.parse(data.toString());
    waiting.get(m.id)?.(m);
    waiting.delete(m.id);
  });
  ws.on('error', (err) => s.errors.push(err.message));
  ws.on('close', () => (s.closed = true));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const login = await call('call', [1, 'login', ['', '']]);
  if (login.result !== true) throw new Error(`login: ${JSON.stringify(login)}`);
  void (async () => {
    while (!s.closed) {
      const r = await Promise.race([call('call', [0, 'get_dynamic_global_properties', []]), sleep(5000).then((): { result?: unknown; error?: unknown } => ({ error: 'no answer within 5 s' }))]);
      if (s.closed) break;
      if (r.error !== undefined || typeof (r.result as { head_block_number?: unknown })?.head_block_number !== 'number') s.errors.push(JSON.stringify(r.error ?? r.result));
      else s.answered++;
      await sleep(50);
    }
  })();
  return s;
}

/** A replica's open WebSocket connections, from its own /metrics. */
async function wsConnections(node: ChildNode): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${node.port}/metrics`)).text();
  return valueOf(parsePromText(text), 'graphene_rpc_connections', { transport: 'ws' }) ?? -1;
}

/** Every session made at least one more call since `before`, and none was cut or failed. */
function allServing(sessions: Session[], before: number[]): boolean {
  return sessions.every((s, i) => !s.closed && s.errors.length === 0 && s.answered > before[i]!);
}

(haveHaproxy ? test : test.skip)(
  `replicas drained, taken out and added through HAProxy's admin socket at run time: the sessions on the replica that stays are never cut and never miss an answer${haveHaproxy ? '' : ' — skipped: haproxy is not installed'}`,
  async (t) => {
    t.timeout(240_000);
    const producer = await serveChild(['--data-dir', tempDir(t, 'graphene-rpc-replicas-p-'), '--block-interval', '1', '--workers', '1']);
    t.teardown(() => void producer.child.kill('SIGKILL'));
    const upstream = `ws://127.0.0.1:${producer.port}/ws`;
    const follower = (port: number) => serveChild(['--data-dir', tempDir(t, 'graphene-rpc-replicas-f-'), '--rpc-endpoint', `127.0.0.1:${port}`, '--follow', upstream, '--workers', '1']);
    const ports = await freePorts(3);
    const [r1, r2, r3] = await Promise.all(ports.map(follower));
    for (const r of [r1!, r2!, r3!]) t.teardown(() => void r.child.kill('SIGKILL'));

    // replica1 and replica2 are in the file; replica3 runs but HAProxy does not know it yet.
    const proxy = startHaproxy(t, { front: await freePort(), servers: [ports[0]!, ports[1]!], inter: '200ms' });
    const front = `127.0.0.1:${proxy.front}`;
    await untilServed(proxy, `http://${front}/ready`);
    await until(async () => (await proxy.admin('show servers state graphene_rpc')).match(/ replica\d 127\.0\.0\.1 2 0 /g)?.length === 2, 'both replicas up');

    // Eight sessions, spread by leastconn: four on each replica.
    const first = await Promise.all(Array.from({ length: 8 }, () => session(`ws://${front}/ws`)));
    t.teardown(() => first.forEach((s) => s.stop()));
    await until(async () => (await wsConnections(r1!)) === 4 && (await wsConnections(r2!)) === 4, 'four sessions on each replica', 10_000);

    // Drain replica2: it gets no new session, and keeps the ones it has.
    t.is((await proxy.admin('set server graphene_rpc/replica2 state drain')).trim(), '');
    const duringDrain = await Promise.all(Array.from({ length: 4 }, () => session(`ws://${front}/ws`)));
    t.teardown(() => duringDrain.forEach((s) => s.stop()));
    await until(async () => (await wsConnections(r1!)) === 8, 'new sessions on replica1 only', 10_000);
    t.is(await wsConnections(r2!), 4, 'the drained replica keeps its sessions and gets no new one');
    let mark = first.map((s) => s.answered);
    await until(async () => allServing(first, mark), 'every session answered while replica2 drains', 10_000);

    // Take replica2 out: its sessions are cut (their clients reconnect through the proxy), and only
    // theirs.
    t.is((await proxy.admin('set server graphene_rpc/replica2 state maint')).trim(), '');
    await until(async () => (await wsConnections(r2!)) === 0, 'replica2 left with no session', 10_000);
    // The clients learn of the cut a little after the replica does.
    await until(async () => first.filter((s) => s.closed).length >= 4, 'four clients told of the cut', 10_000).catch(() => undefined);
    const cut = first.filter((s) => s.closed);
    t.is(cut.length, 4, 'the four sessions on replica2 were cut');
    const stayed = [...first.filter((s) => !s.closed), ...duringDrain];
    t.is(stayed.length, 8);
    t.is(await wsConnections(r1!), 8);

    // Add replica3 at run time: with the backend's default-server settings spelt out (a server added
    // through the socket does not take them), its checks enabled, then put in service.
    t.regex(await proxy.admin(`add server graphene_rpc/replica3 127.0.0.1:${ports[2]} check inter 200ms fall 2 rise 2 on-marked-down shutdown-sessions`), /New server registered/);
    t.is((await proxy.admin('enable health graphene_rpc/replica3')).trim(), '');
    t.is((await proxy.admin('enable server graphene_rpc/replica3')).trim(), '');
    await until(async () => / replica3 127\.0\.0\.1 2 0 /.test(await proxy.admin('show servers state graphene_rpc')), 'replica3 up', 10_000);
    // New sessions go to it: replica1 holds eight, replica3 none.
    const later = await Promise.all(Array.from({ length: 4 }, () => session(`ws://${front}/ws`)));
    t.teardown(() => later.forEach((s) => s.stop()));
    await until(async () => (await wsConnections(r3!)) === 4, 'the new sessions on replica3', 10_000);
    t.is(await wsConnections(r1!), 8);

    // The sessions that stayed on replica1 went on through all of it, and so do replica3's.
    mark = stayed.map((s) => s.answered);
    const mark3 = later.map((s) => s.answered);
    await until(async () => allServing(stayed, mark) && allServing(later, mark3), 'every session answered after the changes', 10_000);
    for (const s of [...stayed, ...later]) {
      t.false(s.closed);
      t.deepEqual(s.errors, []);
    }
    // A cut session's client reconnects and is served by a replica in service.
    const again = await session(`ws://${front}/ws`);
    t.teardown(() => again.stop());
    t.is((await rpc(`http://${front}/rpc`, 'database', 'get_dynamic_global_properties', [])).error, undefined);
    t.is(proxy.proxy.exitCode, null, proxy.stderr());
    t.log(`calls answered on the sessions that stayed: ${stayed.reduce((n, s) => n + s.answered, 0)}, none failed`);
  },
);
