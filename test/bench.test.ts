// The benchmark as a smoke test, at its tiniest (`--tiny`: a 60-account chain, one worker count,
// 0.2 s runs, a few sessions): every scenario on every system completes without errors and the report
// is written (JSON, Markdown, SVG charts); ws-market polls books that hold orders. No timing is asserted: speed is for the report, not for
// tests. The full benchmark is a command (`npm run bench`), not a test.
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runGenerate } from '../src/generate-command.js';
import { MIN_OPEN_LOOP_RATE } from '../bench/run.js';

const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/cli.js');

const bench = (args: string[]) =>
  new Promise<{ code: number; stderr: string }>((resolve, reject) =>
    execFile(process.execPath, [cli, 'bench', ...args], { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') reject(new Error(`${err.message}\n${stdout}\n${stderr.slice(-3000)}`));
      else resolve({ code: typeof err?.code === 'number' ? err.code : 0, stderr });
    }),
  );

test('graphene-rpc bench --tiny runs every scenario without errors and writes the report', async (t) => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'graphene-rpc-bench-'));
  t.teardown(() => rmSync(out, { recursive: true, force: true }));
  const run = await bench(['--tiny', '--data-dir', path.join(out, 'chain'), '--out', out]);
  t.is(run.code, 0, run.stderr.slice(-3000));
  const files = readdirSync(out).filter((f) => f.startsWith('bench-'));
  const json = files.find((f) => f.endsWith('.json'));
  t.truthy(json, 'a JSON result');
  t.truthy(files.find((f) => f.endsWith('.md')), 'a Markdown report');
  t.true(files.filter((f) => f.endsWith('.svg')).length >= 4, 'the charts');
  const report = JSON.parse(readFileSync(path.join(out, json!), 'utf8'));
  const scenarios = new Set(report.runs.map((r: { scenario: string }) => r.scenario));
  for (const s of ['http-small', 'ws-small', 'ws-history', 'ws-mixed', 'ws-market']) t.true(scenarios.has(s), s);
  for (const kind of ['graphene-rpc', 'ceiling', 'conventional']) t.true(report.runs.some((r: { kind: string }) => r.kind === kind), kind);
  for (const r of report.runs) {
    t.is(r.errors, 0, `${r.scenario} on ${r.system}`);
    t.true(r.completed > 0, `${r.scenario} on ${r.system} completed calls`);
  }
  // ws-market: the generated chain has markets, their books are not empty, and every system was
  // measured answering book and ticker calls (errors are counted in each run above).
  t.true(report.chain.openOrders > 0, 'the generated chain holds open orders');
  t.true(report.market.books.length > 0, 'markets polled');
  for (const b of report.market.books) t.true(b.bids + b.asks > 0, `${b.base}/${b.quote}: a non-empty order book`);
  for (const kind of ['graphene-rpc', 'ceiling', 'conventional']) {
    const run = report.runs.find((r: { scenario: string; kind: string }) => r.scenario === 'ws-market' && r.kind === kind);
    t.truthy(run, `ws-market on ${kind}`);
    if (kind !== 'ceiling') t.true(run.latency.book.count > 0 && run.latency.ticker.count > 0, `${kind}: both book and ticker calls`);
  }
  t.true(report.deposits.deliveries > 0, 'ws-deposits measured notices');
  t.is(report.idle.length, 2, 'ws-idle on graphene-rpc and the conventional stack');
  t.truthy(report.capacity);
  // The capacity advice rests on a run that met the target, or the search went down to its lowest
  // rate before it said that none did.
  const smallOpen = report.runs.filter((r: { scenario: string; loop: string }) => r.scenario === 'ws-small' && r.loop === 'open');
  if (report.capacity.sustainableRate > 0) {
    t.true(smallOpen.some((r: { throughput: number; errors: number; latency: { small: { p99: number } } }) => r.throughput === report.capacity.sustainableRate && r.errors === 0 && r.latency.small.p99 <= report.capacity.p99TargetMs));
  } else {
    t.is(Math.min(...smallOpen.map((r: { offeredRate: number }) => r.offeredRate)), MIN_OPEN_LOOP_RATE, report.capacity.note);
  }
  const md = readFileSync(path.join(out, files.find((f) => f.endsWith('.md'))!), 'utf8');
  t.regex(md, /## Capacity advice/);
  t.regex(md, /## ws-market\n[^]*\| BTS\/X[A-Z]+ \| \d+ \|/);
  // The adversarial scenarios: the prober measured idle and next to each attack, the attackers served.
  const adv = report.adversarial;
  t.true(adv.idle.count > 0, 'the prober measured idle');
  t.deepEqual(adv.runs.map((r: { scenario: string }) => r.scenario), ['adv-expensive', 'adv-pipelined', 'adv-flood', 'adv-nonreaders']);
  for (const r of adv.runs) {
    t.true(r.prober.count > 0, `${r.scenario}: the prober measured`);
    t.true(r.attackers.connections > 0 && r.attackers.sent > 0, `${r.scenario}: the attackers sent`);
    t.true(r.nodeRssMaxMiB > 0, `${r.scenario}: the node's RSS`);
    t.is(typeof r.pass, 'boolean');
  }
  t.true(adv.calls.some((c: { label: string }) => c.label === adv.expensive), 'the attacks use a measured call');
  t.regex(md, /## Under attack\n[^]*\| adv-nonreaders \|/);
});

test('graphene-rpc bench --scenarios refuses a scenario it does not know, naming the known ones', async (t) => {
  const run = await bench(['--tiny', '--scenarios', 'ws-small,ws-nope']);
  t.not(run.code, 0);
  t.regex(run.stderr, /--scenarios: unknown scenario 'ws-nope' \(known: http-small, ws-small, ws-history, ws-mixed, ws-market, ws-idle, ws-deposits, adv-expensive, adv-pipelined, adv-flood, adv-nonreaders\)/);
});

test('graphene-rpc bench refuses ws-market on a chain without open orders, before running anything', async (t) => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'graphene-rpc-bench-'));
  t.teardown(() => rmSync(out, { recursive: true, force: true }));
  const dataDir = path.join(out, 'chain');
  await runGenerate({ dataDir, accounts: 10, operations: 40, seed: 1, progress: false });
  const run = await bench(['--tiny', '--data-dir', dataDir, '--out', out, '--scenarios', 'ws-small,ws-market']);
  t.not(run.code, 0);
  t.regex(run.stderr, /ws-market: the chain in .* has no open limit orders/);
  t.false(/ws-small on/.test(run.stderr), 'nothing was measured');
});
