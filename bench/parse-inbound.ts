// Micro-benchmark of request parsing (protocol/jsonrpc.ts parseInbound) on the request shapes the
// capacity benchmark sends, so a change to parsing can be measured without the network, the pool
// and the noise of other processes on the machine. Runs alone: `node dist/bench/parse-inbound.js`.
// Prints one line per shape: parses per second, best of five rounds.

import { parseInbound } from '../src/protocol/jsonrpc.js';

const shapes: Record<string, string[]> = {
  // ws-small's bodies (bench/run.ts scenarios)
  small: Array.from({ length: 200 }, (_, i) => JSON.stringify({ id: 1, method: 'get_accounts', params: [[`user-${(i * 7919) % 2000}`]] })),
  // ws-history's bodies
  history: Array.from({ length: 200 }, (_, i) => JSON.stringify({ id: 1, method: 'call', params: ['history', 'get_relative_account_history', ['exchange-1', 0, 100, 100 + i * 97]] })),
  // a broadcast of a transfer with a memo whose nonce is above 2^53, as python-bitshares sends it
  memo: [
    '{"method": "call", "params": ["network_broadcast", "broadcast_transaction", [{"ref_block_num": 12, "ref_block_prefix": 2869397506, "expiration": "2026-11-23T11:00:00", "operations": [[0, {"fee": {"amount": 104589, "asset_id": "1.3.0"}, "from": "1.2.17", "to": "1.2.18", "amount": {"amount": 150000, "asset_id": "1.3.0"}, "memo": {"from": "BTS6MRyAjQq8ud7hVNYcfnVPJqcVpscN5So8BhtHuGYqET5GDW5CV", "to": "BTS6MRyAjQq8ud7hVNYcfnVPJqcVpscN5So8BhtHuGYqET5GDW5CV", "nonce": 8394872615091287364, "message": "0b1f4a5e2c9d7a3b8e6f1d0c4b2a9e8f"}, "extensions": []}]], "extensions": [], "signatures": ["1f4a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f80"]}]], "jsonrpc": "2.0", "id": 7}',
  ],
};

const ROUNDS = 5;
const PER_ROUND = 200_000;

for (const [name, bodies] of Object.entries(shapes)) {
  let best = 0;
  let sink = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < PER_ROUND; i++) {
      const r = parseInbound(bodies[i % bodies.length]!, 250);
      if (r.kind === 'request') sink += r.request.params.length;
    }
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    best = Math.max(best, PER_ROUND / seconds);
  }
  if (sink === 0) throw new Error(`${name}: no request parsed`);
  console.log(`${name.padEnd(8)} ${Math.round(best).toLocaleString('en-US').padStart(12)} parses/s`);
}
