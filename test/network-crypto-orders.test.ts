// network_node_api and orders_api against a real node (reference §4.4, §4.8); crypto_api has its own
// file (crypto-api.test.ts). This node has no P2P layer: network_node_api answers what Core answers
// without one (api.cpp). orders_api answers as Core with the grouped_orders plugin (its groups are
// tested with orders in test/markets-api.test.ts).
import test from 'ava';
import { basic, rpc, WsClient, connectWs } from './helpers/clients.js';
import { fixture, startTestNode } from './helpers/node.js';

const BYTEMASTER = { authorization: basic('bytemaster', 'supersecret') };

const call = rpc;

const NO_P2P = 'Execution error: Assert Exception: _app.p2p_node() != nullptr: No P2P network!';

test('network_node_api without a P2P network: get_info and the advanced parameters assert, no connected peers', async (t) => {
  const { httpUrl } = await startTestNode(t, { 'api-access': fixture('api-access.json') });
  const nn = (method: string, params: unknown[] = []) => call(httpUrl, 'network_node', method, params, BYTEMASTER);
  const info = await nn('get_info');
  t.is(info.error.code, 10);
  t.is(info.error.message, NO_P2P);
  t.is(info.error.data.stack[0].format, '_app.p2p_node() != nullptr: No P2P network!');
  t.deepEqual(await nn('get_connected_peers'), { id: 1, result: [] });
  t.is((await nn('get_advanced_node_parameters')).error.message, NO_P2P);
  t.is((await nn('set_advanced_node_parameters', [{ peer_connection_retry_timeout: 30 }])).error.message, NO_P2P);
  // The variant_object argument converts before the body runs.
  const notObject = await nn('set_advanced_node_parameters', [[1]]);
  t.is(notObject.error.code, 7);
  t.is(notObject.error.message, 'Execution error: Bad Cast: Invalid cast from array_type to Object');
  t.regex((await nn('set_advanced_node_parameters')).error.message, /too few arguments passed to method/);
  // add_node and get_potential_peers keep their behaviour.
  t.deepEqual(await nn('add_node', ['10.1.2.3:1776']), { id: 1, result: null });
  t.deepEqual((await nn('get_potential_peers')).result.map((p: { endpoint: string }) => p.endpoint), ['10.1.2.3:1776']);
  t.deepEqual(await nn('get_connected_peers'), { id: 1, result: [] }, 'a potential peer is not a connected one');
  // Without credentials the set is denied.
  t.is((await call(httpUrl, 'network_node', 'get_info', [])).error.message, 'Execution error: Assert Exception: is_allowed: Access denied');
});

test('network_node_api over WebSocket lists its methods in Core order on an unknown name', async (t) => {
  const { wsUrl } = await startTestNode(t, { 'api-access': fixture('api-access.json') });
  const client = await connectWs(t, wsUrl, BYTEMASTER);
  const api = (await client.call({ id: 1, method: 'call', params: [1, 'network_node', []] })).result as number;
  t.is((await client.call({ id: 2, method: 'call', params: [api, 'get_info', []] })).error.message, NO_P2P);
  const unknown = await client.call({ id: 3, method: 'call', params: [api, 'get_infos', []] });
  t.is(unknown.error.code, -32601);
  t.deepEqual(
    unknown.error.data.stack[0].data.api.map(([name, index]: [string, number]) => [name, index]).sort((a: [string, number], b: [string, number]) => a[1] - b[1]),
    [['get_info', 0], ['add_node', 1], ['get_connected_peers', 2], ['get_potential_peers', 3], ['get_advanced_node_parameters', 4], ['set_advanced_node_parameters', 5]],
  );
});

test('orders_api: the grouped_orders plugin\'s tracked groups; the limit is checked before the assets, and start is an optional in the middle', async (t) => {
  // The default access policy (no api-access file) grants orders_api.
  const { httpUrl } = await startTestNode(t);
  t.deepEqual((await call(httpUrl, 'orders', 'get_tracked_groups', [])).result, [10, 100]);
  t.deepEqual((await call(httpUrl, 'orders', 'get_grouped_limit_orders', ['BTS', '1.3.0', 10, null, 10])).error.message, 'Execution error: Assert Exception: base.asset_id != quote.asset_id: ');
  const price = { base: { amount: 1, asset_id: '1.3.0' }, quote: { amount: 1, asset_id: '1.3.1' } };
  t.is((await call(httpUrl, 'orders', 'get_grouped_limit_orders', ['BTS', 'GOLD', 10, price, 101])).error.message, 'Execution error: Assert Exception: asset_ptr: no such asset');
  t.is(
    (await call(httpUrl, 'orders', 'get_grouped_limit_orders', ['BTS', 'GOLD', 10, null, 102])).error.message,
    'Execution error: Assert Exception: limit <= configured_limit: limit can not be greater than 101',
  );
  // start is an optional in the middle: it may be null but not left out.
  t.regex((await call(httpUrl, 'orders', 'get_grouped_limit_orders', ['BTS', 'GOLD', 10, null])).error.message, /too few arguments passed to method/);
  t.is((await call(httpUrl, 'orders', 'get_grouped_limit_orders', ['BTS', 'GOLD', 10, 'cheap', 10])).error.code, 7);
});
