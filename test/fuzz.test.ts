// A bounded fuzz run against a live node (issue 14): a few thousand mutated and random WebSocket
// frames and HTTP bodies (invalid UTF-8, huge numbers, deep nesting, wrong types at every argument
// position of every method, oversized bodies) and raw HTTP (half-sent, pipelined, HTTP/1.0, garbage),
// from a fixed seed (FUZZ_SEED to change it; the seed is printed). The node must stay up, answer
// every request that carries a readable id exactly once, keep serving a prober on another
// connection, and come back near its memory baseline. bench/fuzz-campaign.ts says what is checked and
// which uWebSockets.js behaviours are counted apart; `npm run fuzz -- --minutes N` runs a longer one.
import test from 'ava';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { FUZZ_ACCESS, formatReport, fuzzNodeOptions, runFuzzCampaign, settledMemory } from '../bench/fuzz-campaign.js';
import { startTestNode } from './helpers/node.js';
import { tempDir } from './helpers/temp.js';
import { rpc } from './helpers/clients.js';

const SEED = Number(process.env.FUZZ_SEED ?? 14);
const FRAMES = Number(process.env.FUZZ_FRAMES ?? 4000);
/** Heap the run may leave behind, after full collections: a leak of a few bytes per frame would pass, one of a connection's state per frame would not. */
const HEAP_SLACK = 48 * 1024 * 1024;

test(`fuzz (seed ${SEED}): the node stays up, answers every readable id once, serves a prober, and returns to its memory baseline`, async (t) => {
  t.timeout(170_000);
  const access = path.join(tempDir(t, 'graphene-rpc-fuzz-'), 'api-access.json');
  writeFileSync(access, JSON.stringify(FUZZ_ACCESS));
  const node = await startTestNode(t, fuzzNodeOptions(access));
  const common = { port: node.port, maxRequestBytes: node.config.maxRequestBytes, maxJsonDepth: node.config.maxJsonDepth };

  // Warm up (code paths loaded, pools sized), then the baseline.
  const warm = await runFuzzCampaign({ ...common, seed: SEED + 1, maxFrames: 300 });
  t.deepEqual(warm.violations, []);
  const before = await settledMemory();

  const report = await runFuzzCampaign({ ...common, seed: SEED, maxFrames: FRAMES });
  t.log(formatReport(report));
  t.deepEqual(report.violations, [], `seed ${SEED}: reproduce with FUZZ_SEED=${SEED} npx ava dist/test/fuzz.test.js`);
  t.true(report.frames >= FRAMES);
  t.true(report.sweepRounds >= 1, 'every method and argument position had a wrong value at least once');
  t.true(report.proberReplies > 0);

  // Still up, and back near the baseline once the connections are gone.
  t.is((await rpc(node.httpUrl, 'database', 'get_chain_id', [])).result, node.node.chainId);
  const after = await settledMemory();
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  t.log(`heap after collection: ${mib(before.heapUsed)} before, ${mib(after.heapUsed)} after; rss ${mib(before.rss)} before, ${mib(after.rss)} after${after.collected ? '' : ' (no gc available)'}`);
  t.true(after.heapUsed - before.heapUsed < HEAP_SLACK, `heap grew by ${mib(after.heapUsed - before.heapUsed)}`);
});
