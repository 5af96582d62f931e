// The benchmark's report: a Markdown file with SVG charts drawn by Vega-Lite (rendered in Node,
// no browser), written beside the JSON results.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vega from 'vega';
import * as vl from 'vega-lite';
import type { AdversarialReport, BenchReport, RunResult } from './results.js';
import type { AttackOutcome } from './attack-worker.js';

async function svg(spec: vl.TopLevelSpec): Promise<string> {
  const compiled = vl.compile(spec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  const out = await view.toSVG();
  view.finalize();
  return out;
}

const closed = (r: BenchReport) => r.runs.filter((x) => x.loop === 'closed');
const p99 = (x: RunResult) => x.latency.small?.p99 ?? Object.values(x.latency)[0]?.p99 ?? NaN;

function bestGraphene(r: BenchReport, scenario: string): RunResult | undefined {
  return closed(r)
    .filter((x) => x.scenario === scenario && x.kind === 'graphene-rpc')
    .sort((a, b) => b.throughput - a.throughput)[0];
}

const ratio = (a: number | undefined, b: number | undefined): string => (a && b ? `${(a / b).toFixed(2)}×` : 'n/a');

export async function writeReport(r: BenchReport, dir: string, stamp: string): Promise<string> {
  const charts: { file: string; title: string }[] = [];
  const chart = async (name: string, title: string, spec: vl.TopLevelSpec) => {
    const file = `bench-${stamp}-${name}.svg`;
    writeFileSync(path.join(dir, file), await svg(spec));
    charts.push({ file, title });
  };

  const sweep = closed(r)
    .filter((x) => x.kind === 'graphene-rpc')
    .map((x) => ({ scenario: x.scenario, workers: x.workers, throughput: x.throughput }));
  await chart('throughput-by-workers', 'graphene-rpc throughput by worker count (closed loop)', {
    width: 480,
    height: 260,
    data: { values: sweep },
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'workers', type: 'ordinal', title: 'worker threads' },
      y: { field: 'throughput', type: 'quantitative', title: 'calls per second' },
      color: { field: 'scenario', type: 'nominal' },
    },
  });

  const systems = closed(r).map((x) => ({ scenario: x.scenario, system: x.system, throughput: x.throughput }));
  await chart('throughput-by-system', 'Throughput per system and scenario (closed loop)', {
    width: 120,
    height: 220,
    data: { values: systems },
    mark: 'bar',
    encoding: {
      column: { field: 'scenario', type: 'nominal', title: null },
      x: { field: 'system', type: 'nominal', title: null, axis: { labelAngle: -40 } },
      y: { field: 'throughput', type: 'quantitative', title: 'calls per second' },
      color: { field: 'system', type: 'nominal', legend: null },
    },
  });

  const lat = closed(r)
    .filter((x) => x.scenario === 'ws-small')
    .flatMap((x) => {
      const l = x.latency.small!;
      return [
        { system: x.system, percentile: 'p50', ms: l.p50 },
        { system: x.system, percentile: 'p90', ms: l.p90 },
        { system: x.system, percentile: 'p99', ms: l.p99 },
        { system: x.system, percentile: 'p99.9', ms: l.p999 },
      ];
    });
  await chart('latency-ws-small', 'ws-small latency percentiles per system (closed loop)', {
    width: 140,
    height: 220,
    data: { values: lat },
    mark: 'bar',
    encoding: {
      column: { field: 'percentile', type: 'ordinal', sort: ['p50', 'p90', 'p99', 'p99.9'], title: null },
      x: { field: 'system', type: 'nominal', title: null, axis: { labelAngle: -40 } },
      y: { field: 'ms', type: 'quantitative', title: 'ms' },
      color: { field: 'system', type: 'nominal', legend: null },
    },
  });

  if (r.deposits) {
    const d = r.deposits.delayMs;
    await chart('notice-delay', 'ws-deposits: delay from block application to notice receipt', {
      width: 360,
      height: 220,
      data: {
        values: [
          { percentile: 'p50', ms: d.p50 },
          { percentile: 'p90', ms: d.p90 },
          { percentile: 'p99', ms: d.p99 },
          { percentile: 'p99.9', ms: d.p999 },
          { percentile: 'max', ms: d.max },
        ],
      },
      mark: 'bar',
      encoding: { x: { field: 'percentile', type: 'ordinal', sort: null, title: null }, y: { field: 'ms', type: 'quantitative', title: 'ms' } },
    });
  }

  const scenarios = [...new Set(closed(r).map((x) => x.scenario))];
  const find = (scenario: string, kind: string) => closed(r).find((x) => x.scenario === scenario && x.kind === kind);
  const lines: string[] = [];
  lines.push(`# graphene-rpc benchmark${r.quick ? ' (quick)' : ''}`, '');
  lines.push(
    `Run ${r.started} on ${r.machine.cpus} CPUs (${r.machine.cpuModel}), ${r.machine.memoryGiB} GiB, Node ${r.machine.node}. ` +
      `Chain: ${r.chain.accounts} accounts, ${r.chain.operations} operations; the busiest account holds ${r.chain.busiestAccountOps}; ${r.chain.openOrders ?? 0} open limit orders. ` +
      `Each closed-loop run lasts ${(Number(r.settings.durationMs) / 1000).toFixed(1)} s.`,
    '',
  );
  lines.push('## Summary: graphene-rpc (best worker count) against the ceiling and the conventional stack', '');
  lines.push('Absolute numbers move between runs on a shared machine; the ratios, measured pair by pair in the same run, are the figures to compare.', '');
  lines.push('| scenario | graphene-rpc calls/s (workers) | p99 ms | ceiling calls/s | vs ceiling | conventional calls/s | vs conventional | errors |');
  lines.push('|---|---|---|---|---|---|---|---|');
  for (const s of scenarios) {
    const g = bestGraphene(r, s);
    const c = find(s, 'ceiling');
    const v = find(s, 'conventional');
    lines.push(`| ${s} | ${g?.throughput ?? 'n/a'} (${g?.workers ?? '-'}) | ${g ? p99(g) : 'n/a'} | ${c?.throughput ?? 'n/a'} | ${ratio(g?.throughput, c?.throughput)} | ${v?.throughput ?? 'n/a'} | ${ratio(g?.throughput, v?.throughput)} | ${g?.errors ?? 'n/a'} |`);
  }
  lines.push('');
  const mixed = bestGraphene(r, 'ws-mixed');
  lines.push('## Goals', '');
  lines.push('| goal | result |', '|---|---|');
  lines.push(`| http-small ≥ ½ ceiling | ${ratio(bestGraphene(r, 'http-small')?.throughput, find('http-small', 'ceiling')?.throughput)} of the ceiling |`);
  lines.push(`| ws-small ≥ ½ ceiling | ${ratio(bestGraphene(r, 'ws-small')?.throughput, find('ws-small', 'ceiling')?.throughput)} of the ceiling |`);
  lines.push(`| ws-history ≥ 2× conventional | ${ratio(bestGraphene(r, 'ws-history')?.throughput, find('ws-history', 'conventional')?.throughput)} of the conventional stack |`);
  lines.push(`| ws-mixed small-call p99 < 5 ms | ${mixed ? `${mixed.latency.small?.p99} ms (history p99 ${mixed.latency.history?.p99} ms)` : 'n/a'} |`);
  lines.push(`| ws-deposits p99 notice delay < 100 ms | ${r.deposits ? `${r.deposits.delayMs.p99} ms with ${r.deposits.sessions} sessions` : 'n/a'} |`);
  const gIdle = r.idle.find((i) => i.system.startsWith('graphene-rpc'));
  lines.push(`| ws-idle < 10 KiB per session | ${gIdle ? `${(gIdle.bytesPerSession / 1024).toFixed(1)} KiB with ${gIdle.sessions} sessions` : 'n/a'} |`, '');

  if (r.capacity) {
    lines.push('## Capacity advice', '');
    lines.push(
      `On this machine run **${r.capacity.recommendedWorkers} worker thread${r.capacity.recommendedWorkers === 1 ? '' : 's'}** (\`--workers ${r.capacity.recommendedWorkers}\`): ` +
        `it gave the highest ws-small throughput of the sweep. At that setting the node sustains **${r.capacity.sustainableRate} calls/s** of small calls ` +
        `with p99 ≤ ${r.capacity.p99TargetMs} ms (${r.capacity.note}).`,
      '',
      'To size your own machine, run the same sweep there (it generates the default chain once, in `bench/data/`):',
      '',
      '```sh',
      `npm run bench -- --workers 1,2,4,8 --p99-target ${r.capacity.p99TargetMs}`,
      '```',
      '',
    );
  }
  lines.push('## Charts', '');
  for (const c of charts) lines.push(`### ${c.title}`, '', `![${c.title}](${c.file})`, '');
  lines.push('## All runs', '');
  lines.push('| scenario | system | loop | calls/s | p50 ms | p90 ms | p99 ms | p99.9 ms | errors | node CPU % | node RSS MiB | generator utilisation |');
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const x of r.runs) {
    for (const [label, l] of Object.entries(x.latency)) {
      lines.push(
        `| ${x.scenario}${Object.keys(x.latency).length > 1 ? ` (${label})` : ''} | ${x.system} | ${x.loop}${x.offeredRate ? ` @ ${x.offeredRate}/s` : ''} | ${x.throughput} | ${l.p50} | ${l.p90} | ${l.p99} | ${l.p999} | ${x.errors} | ${x.nodeCpuPercent} | ${x.nodeRssMiB} | ${x.generatorUtilisation} |`,
      );
    }
  }
  lines.push('');
  if (r.deposits) {
    const d = r.deposits;
    lines.push('## ws-deposits', '', `${d.sessions} sessions, each subscribed to one account with \`get_full_accounts([account], true)\`; transfers at ${d.rate}/s; blocks every second. ${d.deliveries} notices measured: p50 ${d.delayMs.p50} ms, p90 ${d.delayMs.p90} ms, p99 ${d.delayMs.p99} ms, p99.9 ${d.delayMs.p999} ms, max ${d.delayMs.max} ms. Node CPU ${d.nodeCpuPercent}%. ${d.notes}.`, '');
  }
  if (r.market) lines.push(...marketSection(r));
  if (r.idle.length > 0) {
    lines.push('## ws-idle', '', '| system | sessions | memory per session | RSS before → after |', '|---|---|---|---|');
    for (const i of r.idle) lines.push(`| ${i.system} | ${i.sessions} | ${(i.bytesPerSession / 1024).toFixed(1)} KiB | ${i.rssBeforeMiB} → ${i.rssAfterMiB} MiB |`);
    lines.push('');
  }
  if (r.adversarial) lines.push(...underAttack(r.adversarial));
  lines.push(
    '## How it was measured',
    '',
    '- Each system runs as its own process; load generators run in worker threads of the bench process; the "generator utilisation" column is their event-loop utilisation (1.0 would mean the generator, not the server, was the limit).',
    '- Closed loop: every connection keeps a fixed number of calls in flight. Open loop: calls leave at a fixed rate and latency counts from the scheduled time, so queueing is not hidden.',
    '- The ceiling answers every request with a canned reply of the same size as graphene-rpc\'s reply for that scenario (ws-mixed: the small reply; ws-market: the mean of the sampled books and tickers), without parsing anything.',
    '- The conventional stack is Fastify + ws running the same API handlers inline on its main thread against the same LMDB store.',
    '- Latencies come from HDR histograms (3 significant digits). Node CPU and RSS are read from /proc.',
    '',
  );
  const file = path.join(dir, `bench-${stamp}.md`);
  writeFileSync(file, lines.join('\n'));
  return file;
}

/** ws-market: the markets polled, and each system's latency per call. */
function marketSection(r: BenchReport): string[] {
  const m = r.market!;
  const lines = [
    '## ws-market',
    '',
    `Trading bots polling: ${m.connections} WebSocket connections, each keeping two calls in flight, half \`get_order_book(base, quote, ${m.depth})\` and half \`get_ticker(base, quote)\`, ` +
      `by symbol, in both orientations of every market that holds open orders. What graphene-rpc answered, asked once before measuring (the conventional stack is checked the same way):`,
    '',
    '| market | open orders | bids | asks | latest |',
    '|---|---|---|---|---|',
    ...m.books.map((b) => `| ${b.base}/${b.quote} | ${b.orders} | ${b.bids} | ${b.asks} | ${b.latest} |`),
    '',
    '| system | calls/s | book p50 ms | book p99 ms | ticker p50 ms | ticker p99 ms | errors |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const x of closed(r).filter((x) => x.scenario === 'ws-market')) {
    lines.push(`| ${x.system} | ${x.throughput} | ${x.latency.book?.p50} | ${x.latency.book?.p99} | ${x.latency.ticker?.p50} | ${x.latency.ticker?.p99} | ${x.errors} |`);
  }
  lines.push('');
  return lines;
}

const codes = (m: Record<string, number>) => Object.entries(m).map(([k, v]) => `${v}×${k}`).join(' ') || 'none';

/** The attackers' outcome in one line: served, refused by code, closed by the node. */
export function attackersLine(a: AttackOutcome): string {
  return `${a.connections} conn, ${a.sent} sent, ${a.served} served, refused ${codes(a.refused)}, closed by node ${codes(a.closedByNode)}${a.unanswered ? `, ${a.unanswered} unanswered at stop` : ''}${a.connectFailed ? `, ${a.connectFailed} failed to connect` : ''}`;
}

/** The "Under attack" section: the prober idle and next to each attack, against issue 12's targets. */
function underAttack(a: AdversarialReport): string[] {
  const t = a.targets;
  const budget = a.maxBufferedBytes === null ? 'no --max-buffered-bytes option' : `--max-buffered-bytes ${(a.maxBufferedBytes / 1024 / 1024).toFixed(0)} MiB`;
  const lines = [
    '## Under attack',
    '',
    `${a.system}${a.nodeDir ? ` from \`${a.nodeDir}\`` : ''}, at its default limits (${budget}). A prober — one WebSocket connection calling \`get_accounts\` for one account every 100 ms, ` +
      `open loop, latency from the scheduled send — measured for ${(a.durationMs / 1000).toFixed(1)} s idle, then next to each attack, each on a fresh node. ` +
      `Targets: prober p99 ≤ ${t.proberP99Ms} ms and ≤ ${t.ratioToIdle}× its idle p99, without errors; with the non-readers, node RSS under ${t.rssBudgetMiB} MiB as well.`,
    '',
    `The attacks use the slowest legal call measured alone: **${a.expensive}**.`,
    '',
    '| candidate call | median ms alone | reply bytes | legal |',
    '|---|---|---|---|',
    ...a.calls.map((c) => `| ${c.label} | ${c.medianMs} | ${c.replyBytes} | ${c.error === undefined ? 'yes' : `no: ${c.error}`} |`),
    '',
    '| scenario | attack | prober p50 ms (idle) | prober p99 ms (idle) | × idle p99 | prober thread\'s max lag ms (idle) | node RSS max MiB | node CPU % | result | attackers got |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const x of a.runs) {
    lines.push(
      `| ${x.scenario} | ${x.attack} | ${x.prober.p50} (${a.idle.p50}) | ${x.prober.p99} (${a.idle.p99}) | ${x.ratioToIdle}× | ${x.prober.clientLoopDelayMaxMs} (${a.idle.clientLoopDelayMaxMs}) | ${x.nodeRssMaxMiB} | ${x.nodeCpuPercent} | ${x.pass ? 'pass' : `**fail**: ${x.failures.join('; ')}`} | ${attackersLine(x.attackers)} |`,
    );
  }
  lines.push('', 'The prober thread\'s max lag is its own event-loop delay while measuring: when it is close to the prober\'s p99, the bench process was starved of CPU (2 cores shared by node, attackers and prober) and the figure is not the node\'s alone. "Unanswered" are calls still in flight when the attackers stopped (non-readers: not received even after reading for up to 3 s). Attackers\' refusals are counted by JSON-RPC error code (-32009 busy on the connection, -32010 busy on the node, -32012 over the time budget, -32013 rate limit); "closed by node" by WebSocket close code (1013: try again later) or socket error.', '');
  return lines;
}
