// `npm run fuzz -- --minutes N [--seed S] [--workers W]`: a longer fuzz campaign than the one in
// `npm test` (test/fuzz.test.ts), against a node started in this process on a fresh chain in a temp
// directory and an ephemeral loopback port. It prints progress every 5 s, then the counts (frames
// fuzzed, replies, errors by code, closes, what uWebSockets.js does that is counted apart) and any
// violation, and the memory before and after; it exits 1 if anything was violated or the heap did
// not come back near its baseline. Bounded: it stops by itself after N minutes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildConfig } from '../src/config.js';
import { createLogger } from '../src/log.js';
import { startNode } from '../src/main.js';
import { FUZZ_ACCESS, formatReport, fuzzNodeOptions, runFuzzCampaign, settledMemory } from './fuzz-campaign.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '5' },
    seed: { type: 'string' },
    workers: { type: 'string', default: '2' },
    'ws-connections': { type: 'string', default: '4' },
    'http-clients': { type: 'string', default: '2' },
  },
});
const minutes = Number(values.minutes);
if (!(minutes > 0 && minutes <= 24 * 60)) throw new Error('--minutes must be a number of minutes, at most a day');
const seed = values.seed !== undefined ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31);
const HEAP_SLACK = 64 * 1024 * 1024;

const dir = mkdtempSync(path.join(os.tmpdir(), 'graphene-rpc-fuzz-'));
const access = path.join(dir, 'api-access.json');
writeFileSync(access, JSON.stringify(FUZZ_ACCESS));
const dataDir = path.join(dir, 'data');
const config = buildConfig({ 'rpc-endpoint': '127.0.0.1:0', workers: values.workers, 'log-level': 'error', ...fuzzNodeOptions(access), 'data-dir': dataDir });
const node = await startNode(config, createLogger('error'));
const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
let failed = false;
try {
  console.log(`fuzzing 127.0.0.1:${node.port} for ${minutes} min, seed ${seed} (again with --seed ${seed})`);
  const common = { port: node.port, maxRequestBytes: config.maxRequestBytes, maxJsonDepth: config.maxJsonDepth, wsConnections: Number(values['ws-connections']), httpClients: Number(values['http-clients']) };
  await runFuzzCampaign({ ...common, seed: seed + 1, maxFrames: 500 });
  const before = await settledMemory();
  const started = Date.now();
  const report = await runFuzzCampaign({
    ...common,
    seed,
    deadline: started + minutes * 60_000,
    progress: (r) => console.log(`${Math.round((Date.now() - started) / 1000)} s: ${r.frames} frames, ${r.replies} replies, ${r.rawHttp} raw HTTP, prober ${r.proberReplies}, ${r.violations.length} violations`),
  });
  const after = await settledMemory();
  console.log(formatReport(report));
  console.log(`memory after full collections: heap ${mib(before.heapUsed)} -> ${mib(after.heapUsed)}, rss ${mib(before.rss)} -> ${mib(after.rss)}${after.collected ? '' : ' (no gc available: figures are not settled)'}`);
  failed = report.violations.length > 0 || after.heapUsed - before.heapUsed > HEAP_SLACK;
} finally {
  await node.close();
  rmSync(dir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
