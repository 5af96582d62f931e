// The quick benchmark as a smoke test: every scenario completes without errors and the report is
// written (JSON, Markdown, SVG charts). No timing is asserted: speed is for the report, not for tests.
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/cli.js');

test('graphene-rpc bench --quick runs every scenario without errors and writes the report', async (t) => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'graphene-rpc-bench-'));
  t.teardown(() => rmSync(out, { recursive: true, force: true }));
  await new Promise<void>((resolve, reject) =>
    execFile(process.execPath, [cli, 'bench', '--quick', '--out', out], { timeout: 170_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${err.message}\n${stdout}\n${stderr.slice(-3000)}`)) : resolve(),
    ),
  );
  const files = readdirSync(out);
  const json = files.find((f) => f.endsWith('.json'));
  t.truthy(json, 'a JSON result');
  t.truthy(files.find((f) => f.endsWith('.md')), 'a Markdown report');
  t.true(files.filter((f) => f.endsWith('.svg')).length >= 4, 'the charts');
  const report = JSON.parse(readFileSync(path.join(out, json!), 'utf8'));
  const scenarios = new Set(report.runs.map((r: { scenario: string }) => r.scenario));
  for (const s of ['http-small', 'ws-small', 'ws-history', 'ws-mixed']) t.true(scenarios.has(s), s);
  for (const kind of ['graphene-rpc', 'ceiling', 'conventional']) t.true(report.runs.some((r: { kind: string }) => r.kind === kind), kind);
  for (const r of report.runs) {
    t.is(r.errors, 0, `${r.scenario} on ${r.system}`);
    t.true(r.completed > 0, `${r.scenario} on ${r.system} completed calls`);
  }
  t.true(report.deposits.deliveries > 0, 'ws-deposits measured notices');
  t.is(report.idle.length, 2, 'ws-idle on graphene-rpc and the conventional stack');
  t.truthy(report.capacity);
  t.regex(readFileSync(path.join(out, files.find((f) => f.endsWith('.md'))!), 'utf8'), /## Capacity advice/);
});
