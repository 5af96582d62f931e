// Transport behaviour with real clients: keep-alive HTTP, any path, pipelined WebSocket replies in
// arrival order, and a real BitShares client's connect sequence.
import test from 'ava';
import http from 'node:http';
import { startTestNode } from './helpers/node.js';
import { WsClient, httpPost, connectWs } from './helpers/clients.js';

function post(agent: http.Agent, port: number, path: string, body: string): Promise<{ status: number; text: string; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, reused: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('HTTP keeps the connection alive between requests', async (t) => {
  const { port } = await startTestNode(t);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => agent.destroy());
  const first = await post(agent, port, '/rpc', '{"id":1,"method":"get_chain_id","params":[]}');
  const second = await post(agent, port, '/rpc', '{"id":2,"method":"get_chain_id","params":[]}');
  t.is(first.status, 200);
  t.is(second.status, 200);
  t.true(second.reused, 'the second request went over the first one\'s connection');
});

test('HTTP accepts POST on any path and refuses other methods with 405 and a JSON-RPC error', async (t) => {
  const { port } = await startTestNode(t);
  for (const path of ['/', '/rpc', '/ws', '/any/thing']) {
    const r = await httpPost(`http://127.0.0.1:${port}${path}`, '{"id":1,"method":"get_chain_id","params":[]}');
    t.is(r.status, 200, path);
  }
  const get = await fetch(`http://127.0.0.1:${port}/rpc`);
  t.is(get.status, 405);
  t.is(get.headers.get('allow'), 'POST');
  t.is((await get.json()).error.code, -32600);
});

test('WebSocket upgrades on any path', async (t) => {
  const { port } = await startTestNode(t);
  for (const path of ['/', '/ws', '/rpc']) {
    const ws = await WsClient.connect(`ws://127.0.0.1:${port}${path}`);
    t.is((await ws.call({ id: 1, method: 'call', params: [1, 'login', ['', '']] })).result, true, path);
    await ws.close();
  }
});

test('pipelined WebSocket calls are answered in the order they were sent', async (t) => {
  const { wsUrl } = await startTestNode(t, { workers: '2', 'max-pending-calls-per-connection': '1000' });
  const ws = await connectWs(t, wsUrl);
  const n = 200;
  for (let i = 0; i < n; i++) {
    // Alternate pool calls of different cost with front-end (login API) calls.
    if (i % 3 === 0) ws.send(JSON.stringify({ id: i, method: 'call', params: [1, 'get_info', []] }));
    else if (i % 3 === 1) ws.send(JSON.stringify({ id: i, method: 'get_accounts', params: [['1.2.0', '1.2.1', '1.2.2', '1.2.3', '1.2.4', '1.2.5', 'nathan']] }));
    else ws.send(JSON.stringify({ id: i, method: 'get_chain_id', params: [] }));
  }
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push(JSON.parse(await ws.next()).id);
  t.deepEqual(ids, Array.from({ length: n }, (_, i) => i));
});

test('a failed call does not close the WebSocket', async (t) => {
  const { wsUrl } = await startTestNode(t);
  const ws = await connectWs(t, wsUrl);
  for (const bad of ['not json', '[1,2]', '{"id":1,"method":"nope","params":[]}', '{"id":2,"method":"call","params":[99,"x",[]]}', '{"id":3,"method":"get_objects","params":[["1.2"]]}']) {
    ws.send(bad);
    t.truthy(JSON.parse(await ws.next()).error, bad);
  }
  t.is(typeof (await ws.call({ id: 4, method: 'get_chain_id', params: [] })).result, 'string');
});

test('bitsharesjs-ws connects: login, database, network_broadcast, history and get_chain_id', async (t) => {
  const { wsUrl, node } = await startTestNode(t);
  const { Apis } = (await import('bitsharesjs-ws')) as unknown as { Apis: any };
  const api = Apis.instance(wsUrl, true);
  t.teardown(() => Apis.close());
  await api.init_promise;
  t.is(api.chain_id, node.chainId);
  const [account] = await api.db_api().exec('get_accounts', [['nathan']]);
  t.is(account.name, 'nathan');
  const history = await api.history_api().exec('get_account_history', ['nathan', '1.11.0', 10, '1.11.0']);
  t.deepEqual(history, []);
});
