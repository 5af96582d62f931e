// GET /metrics against a real node: calls of every outcome, a refusal, failed logins, sessions in
// each login state and notices are made with real clients, then the scrape is read over HTTP and
// parsed as Prometheus would parse it (bench/prom-text.ts), and its values checked.
import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fixture, startTestNode, type TestNode } from './helpers/node.js';
import { basic, connectWs, httpPost, callText } from './helpers/clients.js';
import { parsePromText, valueOf, type Family } from '../bench/prom-text.js';
import { frontEnds } from '../src/config.js';

const root = fixture('../..');
const ACCESS = path.join(root, 'config/api-access.example.json');

async function scrape(node: TestNode): Promise<Map<string, Family>> {
  const res = await fetch(`http://127.0.0.1:${node.port}/metrics`);
  if (res.status !== 200) throw new Error(`GET /metrics answered ${res.status}`);
  if (!res.headers.get('content-type')?.startsWith('text/plain; version=0.0.4')) throw new Error(`content type ${res.headers.get('content-type')}`);
  return parsePromText(await res.text());
}


test('the exposition parser refuses what Prometheus refuses', (t) => {
  const good = '# HELP a_total A counter.\n# TYPE a_total counter\na_total{x="q\\"uo\\\\te\\n",y="2"} 3\n\n# TYPE h histogram\nh_bucket{le="1"} 1\nh_bucket{le="+Inf"} 2\nh_sum 3.5\nh_count 2\n';
  const f = parsePromText(good);
  t.deepEqual(f.get('a_total')!.samples[0]!.labels, { x: 'q"uo\\te\n', y: '2' });
  t.is(valueOf(f, 'h_count'), 2);
  // Prometheus reads NaN and Inf in any case (prom-client writes "Nan").
  t.true(Number.isNaN(valueOf(parsePromText('x Nan\ny -inf\n'), 'x')!));
  t.throws(() => parsePromText('a{x="1"} 1\nb 2\na{x="2"} 3\n'), { message: /not together/ });
  t.throws(() => parsePromText('a{x="1"} 1\na{x="1"} 2\n'), { message: /twice/ });
  t.throws(() => parsePromText('a{x=1} 1\n'), { message: /not quoted/ });
  t.throws(() => parsePromText('a one\n'), { message: /not a number/ });
  t.throws(() => parsePromText('# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n'), { message: /cumulative/ });
  t.throws(() => parsePromText('# TYPE h histogram\nh_bucket{le="1"} 1\nh_sum 1\nh_count 1\n'), { message: /\+Inf/ });
});

test('GET /metrics: calls by set, method and outcome, refusals by limit, failed logins, connections, sessions, notices, pool and head block', async (t) => {
  const n = await startTestNode(t, { 'api-access': ACCESS, 'max-ids-per-call': '2' });
  const { node, httpUrl, wsUrl } = n;
  // Over HTTP, one request each: ok, an execution error, an unknown method, a call over a limit,
  // and a request whose Basic credentials fail (its call then runs with no API sets).
  t.regex((await httpPost(httpUrl, callText(1, 'get_accounts', [['nathan']]))).text, /"result":\[\{"id":"1\.2\.6"/);
  t.regex((await httpPost(httpUrl, callText(2, 'get_objects', [['nope']]))).text, /Missing the first dot/);
  t.regex((await httpPost(httpUrl, callText(3, 'no_such_method', []))).text, /Method not found/);
  t.regex((await httpPost(httpUrl, callText(4, 'get_accounts', [['a', 'b', 'c']]))).text, /--max-ids-per-call/);
  const failedBasic = await httpPost(httpUrl, JSON.stringify({ id: 5, method: 'call', params: [1, 'get_available_api_sets', []] }), { authorization: basic('bytemaster', 'wrong') });
  t.is(JSON.parse(failedBasic.text).result.length, 0);

  // Three WebSocket sessions: a listed user (Basic at connect), the wildcard, and one whose login failed.
  const user = await connectWs(t, wsUrl, { authorization: basic('bytemaster', 'supersecret') });
  t.is(typeof (await user.call({ id: 1, method: 'get_chain_id', params: [] })).result, 'string');
  const anon = await connectWs(t, wsUrl);
  t.deepEqual(await anon.call({ id: 1, method: 'call', params: [0, 'set_block_applied_callback', [7]] }), { id: 1, result: null });
  const failed = await connectWs(t, wsUrl);
  t.deepEqual(await failed.call({ id: 1, method: 'call', params: [1, 'login', ['bytemaster', 'wrong']] }), { id: 1, result: false });
  // Two blocks: two notices to the block-applied subscriber.
  node.producer!.produce();
  node.producer!.produce();
  for (let i = 0; i < 2; i++) t.is(JSON.parse(await anon.next()).method, 'notice');

  const m = await scrape(n);
  const v = (name: string, labels: Record<string, string> = {}) => valueOf(m, name, labels);
  const calls = (api: string, method: string, outcome: string) => v('graphene_rpc_calls_total', { api, method, outcome });
  t.is(calls('database', 'get_accounts', 'ok'), 1);
  t.is(calls('database', 'get_accounts', 'limited'), 1);
  t.is(calls('database', 'get_objects', 'error'), 1);
  t.is(calls('unknown', 'unknown', 'error'), 1);
  t.is(calls('login', 'get_available_api_sets', 'ok'), 1);
  t.is(calls('login', 'login', 'ok'), 1, 'a login that answers false is a call answered');
  t.is(calls('database', 'get_chain_id', 'ok'), 1);
  t.is(calls('database', 'set_block_applied_callback', 'ok'), 1);
  t.is(m.get('graphene_rpc_calls_total')!.samples.length, 8, 'no other series');
  t.is(v('graphene_rpc_call_duration_seconds_count', { api: 'database', method: 'get_accounts' }), 2);
  t.true(v('graphene_rpc_call_duration_seconds_sum', { api: 'database', method: 'get_accounts' })! > 0);

  t.is(v('graphene_rpc_refusals_total', { limit: 'max-ids-per-call' }), 1);
  const otherRefusals = m.get('graphene_rpc_refusals_total')!.samples.filter((s) => s.labels.limit !== 'max-ids-per-call');
  t.true(otherRefusals.length > 5 && otherRefusals.every((s) => s.value === 0), 'every limit is exported, and only one refused');
  t.is(v('graphene_rpc_failed_logins_total', { via: 'login' }), 1);
  t.is(v('graphene_rpc_failed_logins_total', { via: 'basic' }), 1);

  t.is(v('graphene_rpc_connections', { transport: 'ws' }), 3);
  t.is(v('graphene_rpc_connections', { transport: 'http' }), 0, 'every HTTP request has been answered');
  t.is(v('graphene_rpc_connections_opened_total', { transport: 'ws' }), 3);
  t.is(v('graphene_rpc_connections_opened_total', { transport: 'http' }), 5, 'GET /metrics is not a JSON-RPC request');
  t.is(v('graphene_rpc_sessions', { state: 'user' }), 1);
  t.is(v('graphene_rpc_sessions', { state: 'wildcard' }), 1);
  t.is(v('graphene_rpc_sessions', { state: 'none' }), 1);

  t.is(v('graphene_rpc_notices_sent_total'), 2);
  t.is(v('graphene_rpc_notices_dropped_total'), 0);
  t.is(v('graphene_rpc_head_block_number'), 2);
  t.is(v('graphene_rpc_last_irreversible_block_number'), 1);
  const age = v('graphene_rpc_head_block_age_seconds')!;
  t.true(age >= 0 && age < 600, `head age ${age}`);

  // One worker per front end (TEST_SERVING_PROCESSES, TEST_SERVING_THREADS): the node's metrics sum its front ends'.
  t.is(v('graphene_rpc_pool_workers'), n.config.workers * frontEnds(n.config));
  t.is(v('graphene_rpc_pool_queued_calls'), 0);
  t.is(v('graphene_rpc_pool_running_calls'), 0);
  const busy = v('graphene_rpc_pool_busy_workers')!;
  t.true(busy >= 0 && busy <= 1);
  // get_accounts, get_objects and get_chain_id ran in the pool; the refused get_accounts never reached it.
  t.is(v('graphene_rpc_pool_wait_seconds_count'), 3);
  t.true(v('graphene_rpc_pool_run_seconds_count')! >= 1);
  t.is(v('graphene_rpc_workers_replaced_total'), 0);
  t.is(v('graphene_rpc_backpressure_closes_total', { limit: 'max-buffered-bytes' }), 0);
  t.is(v('graphene_rpc_buffered_bytes'), 0);

  // Process metrics (prom-client's default metrics).
  t.is(m.get('process_cpu_user_seconds_total')?.type, 'counter');
  t.true(v('process_resident_memory_bytes')! > 0);
  t.is(m.get('nodejs_eventloop_lag_seconds')?.type, 'gauge');
  // Every metric of the node's own says what it is, and docs/reference/metrics.md documents it.
  const readme = readFileSync(path.join(root, 'docs/reference/metrics.md'), 'utf8');
  for (const f of m.values()) {
    if (!f.name.startsWith('graphene_rpc_')) continue;
    t.not(f.help, '', `${f.name} has no help`);
    t.true(readme.includes(`\`${f.name}\``), `docs/reference/metrics.md does not document ${f.name}`);
  }

  // A closed connection leaves the gauges.
  await failed.close();
  await anon.close();
  const after = await scrape(n);
  t.is(valueOf(after, 'graphene_rpc_connections', { transport: 'ws' }), 1);
  t.is(valueOf(after, 'graphene_rpc_sessions', { state: 'none' }), 0);
  t.is(valueOf(after, 'graphene_rpc_sessions', { state: 'wildcard' }), 0);
});

test('label sets stay bounded: a hundred unknown method names are one series', async (t) => {
  const n = await startTestNode(t);
  const ws = await connectWs(t, n.wsUrl);
  for (let i = 0; i < 100; i++) ws.send(callText(i, `no_such_method_${i}`, []));
  // The call form too: unknown methods of a known set, and an API ID the session was never given.
  for (let i = 0; i < 20; i++) ws.send(JSON.stringify({ id: 100 + i, method: 'call', params: [0, `nor_this_${i}`, []] }));
  ws.send(JSON.stringify({ id: 200, method: 'call', params: [99, 'get_chain_id', []] }));
  for (let i = 0; i < 121; i++) t.truthy(JSON.parse(await ws.next()).error);
  const text = await (await fetch(`http://127.0.0.1:${n.port}/metrics`)).text();
  t.false(/no_such_method|nor_this/.test(text), 'no client-chosen name reaches a label');
  const m = parsePromText(text);
  const series = m.get('graphene_rpc_calls_total')!.samples;
  t.deepEqual(
    series.map((s) => s.labels),
    [{ api: 'unknown', method: 'unknown', outcome: 'error' }],
  );
  t.is(series[0]!.value, 121);
  t.is(m.get('graphene_rpc_call_duration_seconds')!.samples.filter((s) => s.name.endsWith('_count')).length, 1);
});
