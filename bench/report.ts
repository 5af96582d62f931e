// The benchmark's report: a Markdown file with SVG charts drawn by Vega-Lite (rendered in Node,
// no browser), written beside the JSON results.
import { WORKERS_PER_FRONT_END } from '../src/tuning.js';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vega from 'vega';
import * as vl from 'vega-lite';
import type { AdversarialReport, BenchReport, RunResult } from './results.js';
import { minutes } from './plan.js';
import type { AttackOutcome } from './attack-worker.js';

async function svg(spec: vl.TopLevelSpec): Promise<string> {
  const compiled = vl.compile(spec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  const out = await view.toSVG();
  view.finalize();
  return out;
}

const closed = (r: Pick<BenchReport, 'runs'>) => r.runs.filter((x) => x.loop === 'closed');
const p99 = (x: RunResult) => x.latency.small?.p99 ?? Object.values(x.latency)[0]?.p99 ?? NaN;

/**
 * graphene-rpc's best closed-loop run of `scenario` at one front end (`--processes 1`, each swept
 * worker count): the run the goals' "sweep" figure takes, and the worker count paired rounds run
 * that scenario at again.
 */
export function bestGraphene(r: Pick<BenchReport, 'runs'>, scenario: string): RunResult | undefined {
  return closed(r)
    .filter((x) => x.scenario === scenario && x.kind === 'graphene-rpc')
    .sort((a, b) => b.throughput - a.throughput)[0];
}

const ratio = (a: number | undefined, b: number | undefined): string => (a && b ? `${(a / b).toFixed(2)}×` : 'n/a');

const THREAD_LABELS = { frontEnd: 'main thread (front end)', workers: 'pool workers', other: 'other threads (GC, libuv, V8)', generator: 'load generator' } as const;

/** A load generator this busy may have been the limit, not the system: ratios resting on it are flagged. */
export const SATURATED = 0.95;
export const saturated = (x: RunResult | undefined) => x !== undefined && x.generatorUtilisation >= SATURATED;

/** The node's CPU per call, all its threads (the load generator's not counted). */
export const nodeCpu = (c: NonNullable<RunResult['cpuUs']>) => c.frontEnd + c.workers + c.other;
/** Issue 15's goal for `graphene-rpc generate`, operations a second. */
export const GENERATE_GOAL = 50_000;

/** A count as the bounds section writes it (12,345), and microseconds (12.3). */
const count = (v: number) => Math.round(v).toLocaleString('en-US');
const us = (v: number) => v.toFixed(1);
const gb = (bytes: number) => (bytes / 1e9).toFixed(2);

/** What the report says of the store's page cache before the runs. */
export function storeWarmupLine(w: BenchReport['storeWarmup']): string {
  if (!w) return '';
  if (w.read) return ` The store (${gb(w.bytes)} GB) was read through once before the runs (${w.seconds.toFixed(1)} s), so that every system read it from the page cache, as a node that has served a while does.`;
  return ` The store (${gb(w.bytes)} GB) is more than half this machine's memory (${gb(w.limitBytes * 2)} GB), so it was not read ahead: the runs read it from disk where they must, the first system measured most.`;
}

/** The cores a projection is made for. */
export const PROJECTED_CORES = [2, 4, 8, 16, 32] as const;

/**
 * The scaling model: a system's throughput on `cores` is bounded by its serial part (the one thread
 * every call passes through: graphene-rpc's front end, a single-process server's main thread) and by
 * its total CPU per call spread over the cores it can use (one process uses one main thread; a
 * cluster or graphene-rpc's pool uses them all). Clients are assumed to run elsewhere.
 */
export function projectThroughput(x: RunResult, cores: number): number | undefined {
  const c = x.cpuUs;
  if (!c || nodeCpu(c) <= 0) return undefined;
  const spread = (cores * 1e6) / nodeCpu(c);
  // a cluster's main threads are many, one per process: nothing serial
  if (x.kind === 'conventional-cluster') return Math.round(spread);
  return Math.round(Math.min(1e6 / Math.max(c.frontEnd, 1e-3), spread));
}

export async function writeReport(r: BenchReport, dir: string, stamp: string): Promise<string> {
  const charts: { file: string; title: string }[] = [];
  const chart = async (name: string, title: string, spec: vl.TopLevelSpec) => {
    const file = `bench-${stamp}-${name}.svg`;
    writeFileSync(path.join(dir, file), await svg({ ...spec, title } as vl.TopLevelSpec));
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
    // each scenario its own axis: history calls are ten times fewer and would vanish on a shared one
    resolve: { scale: { y: 'independent' } },
  });

  const cpuRows = closed(r)
    .filter((x) => x.cpuUs)
    .flatMap((x) =>
      (['frontEnd', 'workers', 'other', 'generator'] as const).map((part) => ({
        scenario: x.scenario,
        system: x.system,
        thread: THREAD_LABELS[part],
        us: x.cpuUs![part],
      })),
    );
  if (cpuRows.length > 0) {
    await chart('cpu-per-call', 'CPU microseconds per call by thread (closed loop)', {
      width: 150,
      height: 220,
      data: { values: cpuRows },
      mark: 'bar',
      encoding: {
        column: { field: 'scenario', type: 'nominal', title: null },
        x: { field: 'system', type: 'nominal', title: null, axis: { labelAngle: -40 } },
        y: { field: 'us', type: 'quantitative', title: 'CPU µs per call', stack: 'zero' },
        color: { field: 'thread', type: 'nominal', title: 'thread', sort: Object.values(THREAD_LABELS) },
        order: { field: 'thread', sort: 'ascending' },
      },
      resolve: { scale: { y: 'independent' } },
    });
  }

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
      `Each closed-loop run lasts ${(Number(r.settings.durationMs) / 1000).toFixed(1)} s.` +
      (r.pendingLeft ? ` graphene-rpc's throughput runs had ${r.pendingLeft} transactions pending (--pending-transactions).` : '') +
      storeWarmupLine(r.storeWarmup) +
      (r.elapsedS === undefined ? '' : ` The run took ${minutes(r.elapsedS)}${r.plan ? ` (the bench estimated ${minutes(r.plan.seconds)} before it started)` : ''}.`),
    '',
  );
  lines.push(...operatorSection(r), '');
  lines.push('## Summary: graphene-rpc (best worker count) against the ceiling and the conventional stack', '');
  lines.push('Absolute numbers move between runs on a shared machine, and this table\'s runs of one system are minutes apart from the others\' (the goals compare runs made back to back where the run has paired rounds). A ⚠ marks a run whose load generator was saturated (event-loop utilisation ≥ ' + SATURATED + '): the generator, not the system, may have been the limit, so that system\'s figure is a lower bound. Calls/s counts successful replies only; a ✗ marks a run that had errors (refusals, failures, lost calls), which no goal takes as its figure. The ceiling, which answers faster than one generator thread asks, is measured again with one more generator thread (up to one per CPU) while its generator saturates and the retry makes more calls, and its best run kept; a ceiling target that a ratio to a saturated ceiling seems to meet is marked not known.', '');
  lines.push('| scenario | graphene-rpc calls/s (workers) | p99 ms | ceiling calls/s | vs ceiling | conventional calls/s | vs conventional | conventional cluster calls/s | vs cluster | errors |');
  lines.push('|---|---|---|---|---|---|---|---|---|---|');
  const mark = (x: RunResult | undefined) => (x ? `${x.throughput}${saturated(x) ? ' ⚠' : ''}${x.errors > 0 ? ` ✗ ${x.errors} errors` : ''}` : 'n/a');
  for (const s of scenarios) {
    const g = bestGraphene(r, s);
    const c = find(s, 'ceiling');
    const v = find(s, 'conventional');
    const k = find(s, 'conventional-cluster');
    lines.push(
      `| ${s} | ${mark(g)} (${g?.workers ?? '-'}) | ${g ? p99(g) : 'n/a'} | ${mark(c)} | ${ratio(g?.throughput, c?.throughput)} | ${mark(v)} | ${ratio(g?.throughput, v?.throughput)} | ${mark(k)} | ${ratio(g?.throughput, k?.throughput)} | ${g?.errors ?? 'n/a'} |`,
    );
  }
  lines.push('');
  lines.push(...goals(r, find), '');
  lines.push(...pairedSection(r), '');
  lines.push(...bounds(r, find), '');
  lines.push(...cpuSection(r), '');
  lines.push(...gcSection(r), '');
  lines.push(...scalingSection(r), '');
  lines.push(...processesSection(r), '');
  lines.push(...threadsSection(r), '');
  lines.push(...planningSection(r), '');

  if (r.capacity) {
    const c = r.capacity;
    lines.push('## Rate within the latency target (open loop)', '');
    lines.push(
      `One process at its best worker count (\`--processes 1 --workers ${c.recommendedWorkers}\`; weighing every scenario of the sweep alike${c.workerScores ? `: ${Object.entries(c.workerScores).map(([w, v]) => `${w} → ${v}`).join(', ')}` : ''}) ` +
        `sustains **${c.sustainableRate} calls/s** of small calls with p99 ≤ ${c.p99TargetMs} ms (${c.note}).` +
        (c.check
          ? ` Run again on its own at ${c.check.rate} calls/s it made ${c.check.throughput} calls/s at a p99 of ${c.check.p99Ms} ms with ${c.check.errors} errors: the target was ${c.check.met ? 'met again' : '**not met again**, so that rate is luck on this machine rather than capacity'}.` +
            (c.check.generatorLatenessP99Ms !== undefined ? ` The load generator itself sent its requests up to ${c.check.generatorLatenessP99Ms} ms late (p99), and latencies count from each request's scheduled time, so that much of the p99 is the generator's.` : '')
          : ''),
      '',
      'The closed-loop figures above are a different question: the most the node answers with many calls always in flight, whatever the wait. An open-loop rate is the one at which a call sent at any moment is answered within the target; on a machine whose CPUs the load generator shares, the two can be far apart.',
      '',
      'To size your own machine, run the same sweep there (it generates the default chain once, in `bench/data/`):',
      '',
      '```sh',
      `npm run bench -- --workers 1,2,4,8 --processes 1,2,4 --p99-target ${c.p99TargetMs}`,
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
        `| ${x.scenario}${Object.keys(x.latency).length > 1 ? ` (${label})` : ''} | ${x.system} | ${x.loop}${x.offeredRate ? ` @ ${x.offeredRate}/s` : ''} | ${x.throughput} | ${l.p50} | ${l.p90} | ${l.p99} | ${l.p999} | ${x.errors} | ${x.nodeCpuPercent} | ${x.nodeRssMiB} | ${x.generatorUtilisation}${x.generators ? ` (${x.generators} threads)` : ''} |`,
      );
    }
  }
  lines.push('');
  if (r.deposits) {
    const d = r.deposits;
    lines.push('## ws-deposits', '', `${d.sessions} sessions, each subscribed to one account with \`get_full_accounts([account], true)\`; transfers at ${d.rate}/s; blocks every second. ${d.deliveries} notices measured${d.deliveries < 100 ? ' (fewer than 100: the p99 is about the maximum, not a percentile to rely on)' : ''}: p50 ${d.delayMs.p50} ms, p90 ${d.delayMs.p90} ms, p99 ${d.delayMs.p99} ms, p99.9 ${d.delayMs.p999} ms, max ${d.delayMs.max} ms. Node CPU ${d.nodeCpuPercent}%. ${d.notes}.`, '');
  }
  if (r.exchange) {
    const e = r.exchange;
    const pc = (p: { p50: number; p99: number; max: number; count: number }) => `p50 ${p.p50} ms, p99 ${p.p99} ms, max ${p.max} ms (${p.count} samples)`;
    lines.push(
      '## ws-exchange',
      '',
      `An exchange watching its deposit accounts as exchanges do (poll the history cursor, use subscriptions as a wake-up): ${e.clients} pollers, each asking \`get_relative_account_history(account, 0, 10, 0)\` of its ${e.accountsPerClient} accounts once per block interval (1 s), and a watcher (${e.watcherSessions} session${e.watcherSessions === 1 ? '' : 's'}, \`get_full_accounts(accounts, true)\`) subscribed to the same accounts; deposits at ${e.rate}/s into them, blocks every second, on ${e.system}.`,
      '',
      '| figure | value |',
      '|---|---|',
      `| poll calls/s | ${e.pollCallsPerSecond} (${e.pollCalls} calls, ${e.pollErrors} errors) |`,
      `| poll latency | ${pc(e.pollLatencyMs)} |`,
      `| freshness of a deposit at the pollers (block applied → first seen) | ${pc(e.pollerFreshnessMs)} |`,
      `| freshness of a deposit at the watcher (block applied → notice) | ${pc(e.watcherFreshnessMs)} |`,
      `| node CPU | ${e.nodeCpuPercent}% |`,
      '',
      `${e.notes}. A poller sees a deposit at its next round, so its freshness is up to one interval plus the call; the watcher's is the notice's delay.`,
      '',
    );
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
    '- Each system runs as its own process; load generators run in worker threads of the bench process; the "generator utilisation" column is the event-loop utilisation of the busiest of them (1.0 would mean the generator, not the server, was the limit).',
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
    `Trading bots polling: ${m.connections} WebSocket connections, each keeping two calls in flight, \`get_order_book(base, quote, ${m.depth})\` and \`get_ticker(base, quote)\` in equal shares (on a chain with smartcoins, 40% each and 20% \`get_call_orders(smartcoin, ${m.depth})\`), ` +
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

/** How the clients ran beside the node on this one host (bench/adversarial.ts ATTACKERS_NICE). */
function clientPriorities(a: AdversarialReport): string {
  if (!a.attackersNice) return "The prober and the attackers ran at the node's own priority, sharing its CPUs (`--client-priorities no`, or a report made before that option).";
  const prober = a.idle.proberNice ? `the prober's thread at nice ${a.idle.proberNice}, above the node's 0, while it measured` : "the prober's thread at the node's priority (this bench could not raise it: that needs root or CAP_SYS_NICE)";
  return `On a real server the neighbour and the attackers are other machines. Here they share the node's CPUs, so the attackers ran at nice ${a.attackersNice} and ${prober}; the node ran as it would alone.`;
}

/** The "Under attack" section: the prober idle and next to each attack, against issue 12's targets. */
function underAttack(a: AdversarialReport): string[] {
  const t = a.targets;
  const budget = a.maxBufferedBytes === null ? 'no --max-buffered-bytes option' : `--max-buffered-bytes ${(a.maxBufferedBytes / 1024 / 1024).toFixed(0)} MiB`;
  const lines = [
    '## Under attack',
    '',
    `${a.system}${a.nodeDir ? ` from \`${a.nodeDir}\`` : ''}, at its default limits (${budget}), every read set granted to everyone (\`config/api-access.read-sets.json\`). A prober — one WebSocket connection calling \`get_accounts\` for one account every 100 ms, ` +
      `and the same call at the same times over keep-alive HTTP from another client address${a.idle.http ? ` (${a.idle.http.address})` : ''}, ` +
      `open loop, latency from the scheduled send — measured for ${(a.durationMs / 1000).toFixed(1)} s idle, then next to each attack, each on a fresh node. ` +
      `Targets: prober p99 ≤ ${t.proberP99Ms} ms and ≤ ${t.ratioToIdle}× its idle p99, without errors, over each transport; with the non-readers, node RSS under ${t.rssBudgetMiB} MiB as well.`,
    '',
    clientPriorities(a),
    '',
    `The expensive and pipelined attacks cycle the slowest legal calls measured alone on this chain, as an attacker timing each would pick them: **${a.expensive}**.`,
    '',
    '| candidate call | median ms alone | reply bytes | legal |',
    '|---|---|---|---|',
    ...a.calls.map((c) => `| ${c.label} | ${c.medianMs} | ${c.replyBytes} | ${c.error === undefined ? 'yes' : `no: ${c.error}`} |`),
    '',
    '| scenario | attack | prober calls (idle) | prober p50 ms (idle) | prober p99 ms (idle) | × idle p99 | HTTP prober p50 ms (idle) | HTTP prober p99 ms (idle) | prober thread\'s max lag ms (idle) | node RSS max MiB | node CPU % | result | attackers got |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const x of a.runs) {
    // An attack the node turned away at once measured nothing of its calls' cost: say so. (Calls
    // held for clients that do not read are neither served nor refused.)
    const refusedAll = x.attackers.served === 0 && x.attackers.sent > 0 && Object.values(x.attackers.refused).some((n) => n > 0);
    lines.push(
      `| ${x.scenario} | ${x.attack}${refusedAll ? ' (**every call refused at once**: this attack measures the refusals, not the calls)' : ''} | ${x.prober.count} (${a.idle.count}) | ${x.prober.p50} (${a.idle.p50}) | ${x.prober.p99} (${a.idle.p99}) | ${x.ratioToIdle}× | ${x.prober.http ? `${x.prober.http.p50} (${a.idle.http?.p50 ?? '—'})` : '—'} | ${x.prober.http ? `${x.prober.http.p99} (${a.idle.http?.p99 ?? '—'})` : '—'} | ${x.prober.clientLoopDelayMaxMs} (${a.idle.clientLoopDelayMaxMs}) | ${x.nodeRssMaxMiB} | ${x.nodeCpuPercent} | ${x.pass ? 'pass' : `**fail**: ${x.failures.join('; ')}`} | ${attackersLine(x.attackers)} |`,
    );
  }
  lines.push('', 'A p99 rests on the prober\'s calls counted in its column: of 100 calls it is the second slowest, so a single late reply moves it. The prober thread\'s max lag is its own event-loop delay while measuring: when it is close to the prober\'s p99, the bench process was starved of CPU (2 cores shared by node, attackers and prober) and the figure is not the node\'s alone. "Unanswered" are calls still in flight when the attackers stopped (non-readers: not received even after reading for up to 3 s). Attackers\' refusals are counted by JSON-RPC error code (-32009 busy on the connection, -32010 busy on the node, -32012 over the time budget, -32013 rate limit); "closed by node" by WebSocket close code (1013: try again later) or socket error.', '');
  return lines;
}

export type Finder = (scenario: string, kind: string) => RunResult | undefined;

/** A target's figure and the two runs it rests on; from paired rounds, the median round's, with the spread. */
export interface Compared {
  readonly value: number;
  readonly g: RunResult;
  readonly o: RunResult;
  /** from the paired rounds: how many gave the figure, and their lowest and highest */
  readonly paired?: { readonly rounds: number; readonly min: number; readonly max: number };
}

/**
 * The figure `f(graphene-rpc run, other run)` of a target that compares graphene-rpc with `kind` in
 * `scenario`. With paired rounds (BenchReport.pairedRounds), the median round's figure and runs (for
 * an even count, the lower of the middle two), since their three systems ran back to back; without,
 * the sweep's best graphene-rpc run against the other system's run.
 */
export function compared(r: BenchReport, find: Finder, scenario: string, kind: 'ceiling' | 'conventional', f: (g: RunResult, o: RunResult) => number | undefined): Compared | undefined {
  const rounds = (r.pairedRounds ?? [])
    .filter((p) => p.scenario === scenario)
    .map((p) => ({ value: f(p.runs['graphene-rpc'], p.runs[kind]), g: p.runs['graphene-rpc'], o: p.runs[kind] }))
    .filter((x): x is Compared => x.value !== undefined && Number.isFinite(x.value))
    .sort((a, b) => a.value - b.value);
  if (rounds.length > 0) {
    const mid = rounds[Math.floor((rounds.length - 1) / 2)]!;
    return { ...mid, paired: { rounds: rounds.length, min: rounds[0]!.value, max: rounds[rounds.length - 1]!.value } };
  }
  const g = bestGraphene(r, scenario);
  const o = find(scenario, kind);
  const value = g && o ? f(g, o) : undefined;
  return g && o && value !== undefined && Number.isFinite(value) ? { value, g, o } : undefined;
}

const throughputShare = (g: RunResult, o: RunResult) => g.throughput / o.throughput;
const frontEndShare = (g: RunResult, o: RunResult) => (g.cpuUs && o.cpuUs ? g.cpuUs.frontEnd / nodeCpu(o.cpuUs) : undefined);
const totalCpuShare = (g: RunResult, o: RunResult) => (g.cpuUs && o.cpuUs ? nodeCpu(g.cpuUs) / nodeCpu(o.cpuUs) : undefined);

/** The targets of the performance issue, each with this run's figure and whether it is met. */
export function goals(r: BenchReport, find: Finder): string[] {
  const out = ['## Goals', ''];
  if (r.pairedRounds?.length) {
    const ran = [...new Set(r.pairedRounds.map((p) => p.scenario))].join(', ');
    out.push(`Targets that compare graphene-rpc with another system in ${ran} take the median of the paired rounds (for an even count, the lower of the middle two), with the spread over the rounds; the sweep's runs, measured minutes apart (graphene-rpc at each scenario's best worker count), give the figure after "sweep". See "Paired rounds" below.`, '');
  }
  out.push('| target | figure | met |', '|---|---|---|');
  // `bound`: the figure may be higher than the truth ('upper': a ratio to a ceiling whose generator
  // saturated), so a figure that meets the target does not show that it is met; or lower ('lower': a
  // ratio of a graphene-rpc run whose generator saturated), so a figure that misses it does not show
  // that it is missed.
  const row = (target: string, figure: number | undefined, ok: (v: number) => boolean, fmt: (v: number) => string, note = '', bound?: 'upper' | 'lower' | 'neither') => {
    const known = figure !== undefined && Number.isFinite(figure);
    const met = !known ? '–' : bound === 'neither' ? 'not known' : ok(figure) ? (bound === 'upper' ? 'not known' : 'yes') : bound === 'lower' ? 'not known' : '**no**';
    out.push(`| ${target} | ${known ? fmt(figure) + note : 'n/a'} | ${met} |`);
  };
  const times = (v: number) => `${v.toFixed(2)}×`;
  const percent = (v: number) => `${(v * 100).toFixed(0)}%`;
  /** A comparing target's row: the figure, its spread over paired rounds and the sweep's figure. */
  const compareRow = (target: string, s: string, kind: 'ceiling' | 'conventional', f: (g: RunResult, o: RunResult) => number | undefined, ok: (v: number) => boolean, short: (v: number) => string, detail: (c: Compared) => string = () => '') => {
    const c = compared(r, find, s, kind, f);
    // A saturated generator bounds the ceiling's throughput, not its CPU per call.
    const lowCeiling = kind === 'ceiling' && f === throughputShare && saturated(c?.o);
    const notes: string[] = [];
    if (c?.paired) {
      const g = bestGraphene(r, s);
      const o = find(s, kind);
      const sweep = g && o ? f(g, o) : undefined;
      notes.push(
        c.paired.rounds > 1 ? `median of ${c.paired.rounds} paired rounds, ${short(c.paired.min)}–${short(c.paired.max)}` : 'one paired round',
        ...(sweep !== undefined && Number.isFinite(sweep) ? [`sweep ${short(sweep)}`] : []),
      );
    }
    // The same for graphene-rpc's own run: its throughput is then a lower bound, and so is the ratio.
    const lowGraphene = f === throughputShare && saturated(c?.g);
    if (lowCeiling) notes.push("the ceiling's generator saturated: the ceiling is a lower bound, this ratio an upper bound");
    if (lowGraphene) notes.push("graphene-rpc's generator saturated: its figure is a lower bound, and so is this ratio");
    const note = notes.length > 0 ? ` (${notes.join('; ')})` : '';
    // Both: the ratio is bounded neither way.
    row(target, c?.value, ok, (v) => short(v) + (c ? detail(c) : ''), note, lowCeiling && lowGraphene ? 'neither' : lowCeiling ? 'upper' : lowGraphene ? 'lower' : undefined);
  };
  compareRow('ws-history ≥ 0.4× the ceiling', 'ws-history', 'ceiling', throughputShare, (v) => v >= 0.4, times);
  compareRow('ws-history ≥ 1.5× the conventional stack', 'ws-history', 'conventional', throughputShare, (v) => v >= 1.5, times);
  compareRow('ws-small ≥ 0.7× the ceiling', 'ws-small', 'ceiling', throughputShare, (v) => v >= 0.7, times);
  compareRow('http-small ≥ 0.8× the ceiling', 'http-small', 'ceiling', throughputShare, (v) => v >= 0.8, times);
  const cpuDetail = (c: Compared) => ` (${c.g.cpuUs!.frontEnd} µs against ${nodeCpu(c.o.cpuUs!).toFixed(1)} µs)`;
  compareRow("front-end CPU per small call ≤ 1.5× the ceiling server's CPU per call", 'ws-small', 'ceiling', frontEndShare, (v) => v <= 1.5, times, cpuDetail);
  compareRow("front-end CPU per history call ≤ 10% of the conventional stack's", 'ws-history', 'conventional', frontEndShare, (v) => v <= 0.1, percent, cpuDetail);
  const scenarios = [...new Set(closed(r).map((x) => x.scenario))];
  for (const s of scenarios) {
    if (!compared(r, find, s, 'conventional', totalCpuShare)) continue;
    compareRow(`${s}: total CPU per call ≤ the conventional stack's`, s, 'conventional', totalCpuShare, (v) => v <= 1, times, (c) => ` (${nodeCpu(c.g.cpuUs!).toFixed(1)} µs against ${nodeCpu(c.o.cpuUs!).toFixed(1)} µs)`);
  }
  const mixed = bestGraphene(r, 'ws-mixed');
  row('ws-mixed small-call p99 < 10 ms', mixed?.latency.small?.p99, (v) => v < 10, (v) => `${v} ms (history p99 ${mixed!.latency.history?.p99} ms)`);
  row('ws-deposits p99 notice delay < 100 ms', r.deposits?.delayMs.p99, (v) => v < 100, (v) => `${v} ms with ${r.deposits!.sessions} sessions`);
  const gIdle = r.idle.find((i) => i.system.startsWith('graphene-rpc'));
  row('ws-idle < 10 KiB per session', gIdle?.bytesPerSession, (v) => v < 10 * 1024, (v) => `${(v / 1024).toFixed(1)} KiB with ${gIdle!.sessions} sessions`);
  row(`generate ≥ ${count(GENERATE_GOAL)} operations/s`, r.chain?.generatedPerSecond, (v) => v >= GENERATE_GOAL, (v) => `${count(v)} operations/s (this chain, when it was made)`);
  return out;
}

/**
 * "Paired rounds": each round's runs of the ratio targets' scenarios, the three systems back to
 * back, with the ratios of that round; the goals take the median round.
 */
export function pairedSection(r: BenchReport): string[] {
  const rounds = r.pairedRounds ?? [];
  if (rounds.length === 0) return [];
  const out = [
    '## Paired rounds',
    '',
    "The sweep measures the ceiling and the conventional stack many minutes after graphene-rpc, and this machine's speed drifts (by as much as 2× within minutes on a shared virtual machine), so a ratio of two such runs says as much about the machine as about the systems. " +
      `Here the three systems were started together and, in each of ${Math.max(...rounds.map((p) => p.round))} rounds, ran each scenario back to back (after a warm-up of each, not recorded), the order turned by one each round so that a drift favours none of them. ` +
      "Each round gives ratios of its own; the goals take the median round. graphene-rpc ran each scenario at the worker count of its best one-process run in the sweep (the run the goals' figure after \"sweep\" takes), shown after its calls/s.",
    '',
    '| scenario | round | order | graphene-rpc calls/s | ceiling calls/s | vs ceiling | conventional calls/s | vs conventional | front end µs/call | ceiling µs/call | conventional µs/call |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const mark = (x: RunResult) => `${x.throughput}${saturated(x) ? ' ⚠' : ''}`;
  const cpu = (x: RunResult) => (x.cpuUs ? us(nodeCpu(x.cpuUs)) : 'n/a');
  for (const p of rounds) {
    const g = p.runs['graphene-rpc'];
    const c = p.runs.ceiling;
    const v = p.runs.conventional;
    out.push(
      `| ${p.scenario} | ${p.round} | ${p.order.join(', ')} | ${mark(g)}${g.workers !== undefined ? ` (×${g.workers})` : ''} | ${mark(c)} | ${ratio(g.throughput, c.throughput)} | ${mark(v)} | ${ratio(g.throughput, v.throughput)} | ${g.cpuUs ? us(g.cpuUs.frontEnd) : 'n/a'} | ${cpu(c)} | ${cpu(v)} |`,
    );
  }
  return out;
}

/**
 * What bounds a throughput target not met (graphene-rpc `g` below `k`× system `o`), from the run's CPU
 * per call: the CPUs, shared by the node and the load generator, bound a closed loop at
 * cpus·10⁶ / (node + generator µs per call). When that bound is above the target the run was not
 * short of CPU, and the line says so, with the time a call took (Little's law) instead of a CPU budget.
 */
export function shareBoundLine(label: string, kind: string, k: number, g: RunResult, o: RunResult, cpus: number): string {
  const c = g.cpuUs!;
  const node = nodeCpu(c);
  const need = k * o.throughput;
  const cpuBound = (cpus * 1e6) / (node + c.generator);
  const budget = (cpus * 1e6) / need - c.generator;
  const head =
    `- **${label}** needs ${count(need)} calls/s (${k}× the ${kind}'s ${count(o.throughput)}${saturated(o) ? ', itself a lower bound: its generator was saturated' : ''}); graphene-rpc made ${count(g.throughput)}. ` +
    `Per call it spent ${us(node)} µs of node CPU (front end ${us(c.frontEnd)}, pool workers ${us(c.workers)}, other threads ${us(c.other)}) and the load generator ${us(c.generator)} µs: on ${cpus} CPUs that bounds it at ${cpus}·10⁶ / ${us(node + c.generator)} = ${count(cpuBound)} calls/s; the front-end thread alone would allow ${count(1e6 / Math.max(c.frontEnd, 1e-3))}. `;
  if (budget <= 0) return head + `On this machine the load generator alone would need more CPU than there is at that rate: the target cannot be shown here.`;
  if (cpuBound < need) return head + `On this machine the target needs the node to spend at most ${us(budget)} µs per call, ${us(node - budget)} µs less than now.`;
  const wait = g.inFlight ? ` With ${g.inFlight} calls in flight a call took ${((g.inFlight / g.throughput) * 1000).toFixed(1)} ms from send to reply on average (Little's law), far more than the CPU it cost: the rest is waiting (in queues, thread hops and the scheduler's turns).` : '';
  return (
    head +
    `That bound is above the target, and the node already spends less than the ${us(budget)} µs per call the target leaves it beside the load generator: by the CPU time charged to their threads, the CPUs were not what bound this run (node ${g.nodeCpuPercent}% of a CPU, load generator utilisation ${g.generatorUtilisation}), though CPU time charged to neither (the kernel's interrupt work, other processes) does not show here.` +
    wait
  );
}

/**
 * What bounds a front-end CPU target not met: the ceiling's cost of the same frames and replies, and
 * the rest, which is the call's own. When the ceiling server alone spends more than the target, no
 * server that writes those replies can meet it on this machine, and the line says so.
 */
export function frontEndBoundLine(label: string, g: { readonly frontEnd: number; readonly workers: number }, target: number, ceilingUs: number | undefined): string {
  const own = `parsing its JSON, the pipeline's layers (session, access, limits, routing, fair queue), handing it to a worker and taking its answer back. Its pool workers spend ${us(g.workers)} µs on it as well.`;
  const head = `- **${label}**: ${us(g.frontEnd)} µs, the target ${us(target)} µs. `;
  if (ceilingUs === undefined) return head + `The rest of the front end's time is the call's own: ${own}`;
  if (ceilingUs <= target) return head + `Receiving a frame and writing a reply of the same size costs the ceiling server ${us(ceilingUs)} µs in all; the rest of the front end's time is the call's own: ${own}`;
  return (
    head +
    `Receiving a frame and writing a reply of the same size, and nothing else, costs the ceiling server ${us(ceilingUs)} µs in all, more than the target: ` +
    `on this machine no server that writes these replies can meet it, this one included. Above the ceiling's cost, the front end spends ${us(Math.max(0, g.frontEnd - ceilingUs))} µs, which is the call's own: ${own}`
  );
}

/**
 * "What bounds the targets not met": for each target this run did not meet, what bounds it, from
 * this run's own measurements: the CPUs (the node and the load generator share them), the front-end
 * thread, the pool's crossing, or the scenario's fixed concurrency (Little's law); for generate's
 * rate, where its bound is measured (bench:writes).
 */
export function bounds(r: BenchReport, find: Finder): string[] {
  const cpus = r.machine.cpus;
  const out: string[] = [];
  // The CPUs bound a closed-loop run at cpus·10⁶ / (node + generator µs per call).
  const cpuBound = (x: RunResult) => (cpus * 1e6) / (nodeCpu(x.cpuUs!) + x.cpuUs!.generator);

  // The same runs as the goals' figures: the median paired round's, or the sweep's.
  const share = (s: string, kind: 'ceiling' | 'conventional', k: number, label: string) => {
    const c = compared(r, find, s, kind, throughputShare);
    if (!c?.g.cpuUs || c.value >= k) return;
    out.push(shareBoundLine(label, kind, k, c.g, c.o, cpus));
  };
  share('ws-history', 'ceiling', 0.4, 'ws-history ≥ 0.4× the ceiling');
  share('ws-history', 'conventional', 1.5, 'ws-history ≥ 1.5× the conventional stack');
  share('ws-small', 'ceiling', 0.7, 'ws-small ≥ 0.7× the ceiling');
  share('http-small', 'ceiling', 0.8, 'http-small ≥ 0.8× the ceiling');

  const frontEnd = (s: string, label: string, limit: (g: NonNullable<RunResult['cpuUs']>, o: NonNullable<RunResult['cpuUs']>) => number, kind: 'ceiling' | 'conventional') => {
    const c = compared(r, find, s, kind, frontEndShare);
    const g = c?.g.cpuUs;
    const o = c?.o.cpuUs;
    if (!g || !o || g.frontEnd <= limit(g, o)) return;
    // The ceiling's cost of the same frames: from the same paired round when there is one.
    const round = r.pairedRounds?.find((p) => p.runs['graphene-rpc'] === c.g);
    const ceiling = (round ? round.runs.ceiling : find(s, 'ceiling'))?.cpuUs;
    out.push(frontEndBoundLine(label, g, limit(g, o), ceiling && nodeCpu(ceiling)));
  };
  frontEnd('ws-small', "front-end CPU per small call ≤ 1.5× the ceiling server's", (_g, c) => 1.5 * nodeCpu(c), 'ceiling');
  frontEnd('ws-history', "front-end CPU per history call ≤ 10% of the conventional stack's", (_g, v) => 0.1 * nodeCpu(v), 'conventional');

  for (const s of [...new Set(closed(r).map((x) => x.scenario))]) {
    const c = compared(r, find, s, 'conventional', totalCpuShare);
    const g = c?.g.cpuUs;
    const v = c?.o.cpuUs;
    if (!g || !v || nodeCpu(g) <= nodeCpu(v)) continue;
    out.push(
      `- **${s}: total CPU per call ≤ the conventional stack's**: ${us(nodeCpu(g))} µs against ${us(nodeCpu(v))}. The conventional stack parses, runs the handler and writes on one thread (${us(v.frontEnd)} µs, other threads ${us(v.other)}); ` +
        `graphene-rpc spends ${us(g.frontEnd)} µs on its front end and ${us(g.workers)} µs in pool workers (other threads ${us(g.other)}): the hop to a worker and back, which buys the use of every core, costs more than it saves here.`,
    );
  }

  const mixed = bestGraphene(r, 'ws-mixed');
  const mixedP99 = mixed?.latency.small?.p99;
  if (mixed?.inFlight && mixedP99 !== undefined && mixedP99 >= 10) {
    const mean = (mixed.inFlight / mixed.throughput) * 1000;
    const need = mixed.throughput * (mixedP99 / 10);
    out.push(
      `- **ws-mixed small-call p99 < 10 ms**: ${mixedP99} ms. The closed loop keeps ${mixed.inFlight} calls in flight, so at ${count(mixed.throughput)} calls/s a call takes ${mean.toFixed(1)} ms from send to reply on average (Little's law), and the p99 is ${(mixedP99 / mean).toFixed(1)}× that. ` +
        `At this concurrency a p99 under 10 ms needs about ${count(need)} calls/s` +
        (mixed.cpuUs ? `; the CPUs bound this run at ${count(cpuBound(mixed))}.` : '.') +
        ' An open-loop client at a rate the node sustains sees far lower latency (Rate within the latency target).',
    );
  }
  const made = r.chain?.generatedPerSecond;
  if (made !== undefined && made < GENERATE_GOAL) {
    out.push(
      `- **generate ≥ ${count(GENERATE_GOAL)} operations/s**: ${count(made)} operations/s when this chain was made. The goal leaves ${(1e6 / GENERATE_GOAL).toFixed(0)} µs an operation on the one thread that holds LMDB's write transaction, and about ten puts an operation go there; ` +
        '`npm run bench:writes` counts and times them on a generated chain and times LMDB puts alone on the machine (README "A synthetic chain").',
    );
  }
  if (out.length === 0) return [];
  return ['## What bounds the targets not met', '', `Each figure is from this run${r.pairedRounds?.length ? `: for a target that compares graphene-rpc with another system in ${[...new Set(r.pairedRounds.map((p) => p.scenario))].join(', ')}, from the paired round with the median figure` : ''}.`, '', ...out];
}

/** Share of a CPU the planning model lets each thread run at, leaving room for bursts and the p99. */
export const PLANNING_UTILISATION = 0.7;
/** Calls/s the planning section sizes a node for, per scenario. */
export const PLANNING_TARGETS = [50_000, 100_000, 200_000];

/**
 * The scaling model as a planner uses it. From this machine's best one-process run of a scenario:
 * the front-end thread's µs per call (fe), the workers' (wk) and the node's in all (total). A node
 * of F front ends on C CPUs carries about min(F·10⁶/fe, C·10⁶/total) calls/s: every call passes one
 * front-end thread, and all its threads share the CPUs. Checked against every multi-process run of
 * this report (on this machine, the load generator's CPU per call taken from the CPUs too), with the
 * miss; then, for target rates, the front ends, workers and CPUs it asks for, each thread at
 * PLANNING_UTILISATION of a CPU. It assumes per-call costs do not grow with the number of processes,
 * which the misses say how far to trust.
 */
export function planningSection(r: BenchReport): string[] {
  const ours = closed(r).filter((x) => x.errors === 0 && x.cpuUs);
  const scenarios = [...new Set(ours.filter((x) => x.kind === 'graphene-rpc').map((x) => x.scenario))];
  if (scenarios.length === 0) return [];
  const lines = [
    '## Planning',
    '',
    `The scaling model: a node of F front ends (serving processes) on C CPUs carries about min(F·10⁶/fe, C·10⁶/total) calls/s, where fe is the front-end thread's CPU µs per call and total the node's over all its threads, taken from this machine's best one-process run. It assumes per-call costs do not grow with the number of processes; the check below says by how much it missed here. Sizes are for threads at ${PLANNING_UTILISATION * 100}% of a CPU, the rest left for bursts and the p99 (--p99-target ${r.capacity?.p99TargetMs ?? 10} ms measured on one process in "Rate within the latency target").`,
    '',
  ];
  const checks: string[] = [];
  const plans: string[] = [];
  for (const s of scenarios) {
    const base = ours.filter((x) => x.scenario === s && x.kind === 'graphene-rpc').sort((a, b) => b.throughput - a.throughput)[0]!;
    const c = base.cpuUs!;
    const fe = c.frontEnd;
    const wk = c.workers;
    const total = nodeCpu(c);
    if (!(fe > 0 && total > 0)) continue;
    for (const x of ours.filter((y) => y.scenario === s && (y.kind === 'graphene-rpc-processes' || y.kind === 'graphene-rpc-threads'))) {
      const f = x.kind === 'graphene-rpc-threads' ? (x.servingThreads ?? 2) : (x.processes ?? 1);
      const predicted = Math.min((f * 1e6) / fe, (r.machine.cpus * 1e6) / (total + c.generator));
      checks.push(`| ${s} | ${shape(x)}${x.auto ? ' (automatic)' : ''} | ${Math.round(predicted)} | ${x.throughput} | ${Math.round((x.throughput / predicted - 1) * 100)}% |`);
    }
    for (const target of PLANNING_TARGETS) {
      const frontEnds = Math.max(1, Math.ceil((target * fe) / 1e6 / PLANNING_UTILISATION));
      // Two at least, as the automatic sizes give: the fair scheduler keeps one for light calls.
      const workers = Math.max(WORKERS_PER_FRONT_END, Math.ceil((target * wk) / 1e6 / PLANNING_UTILISATION / frontEnds));
      const cpus = Math.ceil((target * total) / 1e6 / PLANNING_UTILISATION);
      plans.push(`| ${s} | ${target} | ${frontEnds} | ${workers} | ${cpus} | \`--processes ${frontEnds} --workers ${workers}\` |`);
    }
  }
  if (checks.length > 0) {
    lines.push('The model against this run (the load generator shares the CPUs here, so its CPU per call is taken from them too):', '', '| scenario | processes × workers | predicted calls/s | measured | miss |', '|---|---|---|---|---|', ...checks, '');
  } else {
    lines.push('This run has no multi-process runs to check the model against (`--processes 2,4`).', '');
  }
  lines.push(`What the model asks for, on CPUs that serve the node alone (clients elsewhere), with at least ${WORKERS_PER_FRONT_END} workers a front end:`, '', '| scenario | target calls/s | front ends | workers each | CPUs | run |', '|---|---|---|---|---|---|', ...plans);
  return lines;
}

/**
 * A graphene-rpc run's configuration as an operator writes it: serving processes × workers each, or
 * `N threads × workers` for serving threads.
 */
const shape = (x: RunResult) =>
  x.kind === 'graphene-rpc-threads' ? `${x.servingThreads ?? 2} threads × ${x.workers ?? 1}` : `${x.kind === 'graphene-rpc-processes' ? (x.processes ?? 2) : 1} × ${x.workers ?? 1}`;

/** The graphene-rpc kinds: one process, serving processes, serving threads. */
const isOurs = (x: RunResult) => x.kind === 'graphene-rpc' || x.kind === 'graphene-rpc-processes' || x.kind === 'graphene-rpc-threads';

/**
 * What an operator asks first: which configuration to run on this machine and what it carries. From
 * every closed-loop graphene-rpc run without errors (one process at each worker count, several
 * serving processes, the automatic sizes): the best per scenario, the configuration best over all of
 * them (the highest geometric mean of its share of each scenario's best), the automatic sizes against
 * the best, and the conventional cluster beside it. Then the scaling goals of one front end.
 */
export function operatorSection(r: BenchReport): string[] {
  const ours = closed(r).filter((x) => isOurs(x) && x.errors === 0);
  if (ours.length === 0) return [];
  const scenarios = [...new Set(ours.map((x) => x.scenario))];
  const bestOf = (s: string) => ours.filter((x) => x.scenario === s).sort((a, b) => b.throughput - a.throughput)[0]!;
  const shapes = [...new Set(ours.filter((x) => !x.auto).map(shape))];
  const score = (sh: string) => {
    const shares = scenarios.map((s) => (ours.find((x) => x.scenario === s && !x.auto && shape(x) === sh)?.throughput ?? 0) / bestOf(s).throughput);
    return shares.some((v) => v === 0) ? 0 : Math.exp(shares.reduce((a, v) => a + Math.log(v), 0) / shares.length);
  };
  const ranked = shapes.map((sh) => ({ sh, score: score(sh) })).sort((a, b) => b.score - a.score);
  const top = ranked[0];
  const lines = ['## What to run on this machine', ''];
  const autoRun = ours.find((x) => x.auto);
  if (top && top.score > 0) {
    const [p, w] = top.sh.split(' × ') as [string, string];
    const threads = p.endsWith(' threads');
    const n = threads ? p.slice(0, -' threads'.length) : p;
    const what = threads ? `${n} serving threads` : `${n} serving process${n === '1' ? '' : 'es'}`;
    lines.push(
      `On this machine (${r.machine.cpus} CPUs), the configuration best over ${scenarios.join(', ')} is **${what} × ${w} worker${w === '1' ? '' : 's'} each** ` +
        `(\`graphene-rpc serve ${threads ? `--serving-threads ${n}` : `--processes ${n}`} --workers ${w}\`), its share of each scenario's best ${Math.round(top.score * 100)}% on the geometric mean.` +
        (autoRun ? ` The automatic sizes, the defaults, chose ${shape(autoRun)} here.` : ''),
      '',
    );
  }
  lines.push(
    'Closed loop, calls/s of successful replies (runs with errors left out), the load generator on the same machine. A ⚠ marks a run whose generator saturated (a lower bound).',
    '',
    '| scenario | best configuration (front ends × workers; front ends are processes unless named threads) | calls/s | p99 ms | automatic sizes | calls/s | share of the best | conventional cluster calls/s | best vs cluster | ceiling on as many processes calls/s | best vs that ceiling |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const s of scenarios) {
    const b = bestOf(s);
    const a = ours.find((x) => x.scenario === s && x.auto);
    const k = closed(r).find((x) => x.scenario === s && x.kind === 'conventional-cluster');
    const c = closed(r).find((x) => x.scenario === s && x.kind === 'ceiling-cluster');
    lines.push(
      `| ${s} | ${shape(b)}${b.auto ? ' (automatic)' : ''} | ${b.throughput}${saturated(b) ? ' ⚠' : ''} | ${p99(b)} | ${a ? shape(a) : 'not run'} | ${a ? `${a.throughput}${saturated(a) ? ' ⚠' : ''}` : 'n/a'} | ${a ? `${Math.round((a.throughput / b.throughput) * 100)}%` : 'n/a'} | ${k ? `${k.throughput}${saturated(k) ? ' ⚠' : ''}` : 'n/a'} | ${ratio(b.throughput, k?.throughput)} | ${c ? `${c.throughput}${saturated(c) ? ' ⚠' : ''} (${c.system.replace('ceiling ', '')})` : 'n/a'} | ${ratio(b.throughput, c?.throughput)} |`,
    );
  }
  // One front end as workers are added: calls/s must not fall, nor CPU per call rise much.
  const one = ours.filter((x) => x.kind === 'graphene-rpc' && !x.auto);
  const counts = [...new Set(one.map((x) => x.workers ?? 1))].sort((a, b) => a - b);
  if (counts.length > 1) {
    lines.push('', `One front end (\`--processes 1\`) at each worker count: calls/s, node CPU µs per call (all threads) and calls per pool task.`, '');
    lines.push(`| scenario | ${counts.map((c) => `${c} worker${c === 1 ? '' : 's'}`).join(' | ')} |`, `|---|${counts.map(() => '---|').join('')}`);
    for (const s of scenarios) {
      const cells = counts.map((c) => {
        const x = one.find((y) => y.scenario === s && y.workers === c);
        return x ? `${x.throughput} · ${x.cpuUs ? nodeCpu(x.cpuUs).toFixed(1) : 'n/a'} µs${x.callsPerTask !== undefined ? ` · ${x.callsPerTask} a task` : ''}` : 'n/a';
      });
      lines.push(`| ${s} | ${cells.join(' | ')} |`);
    }
  }
  return lines;
}

/**
 * graphene-rpc in several serving processes (--processes) beside one process, closed loop, each
 * pair at the same worker count per process: the figures README "Scaling out" asks for.
 */
function processesSection(r: BenchReport): string[] {
  const many = closed(r).filter((x) => x.kind === 'graphene-rpc-processes' && !x.auto);
  if (many.length === 0) return [];
  const out = [
    '## Several serving processes (`--processes`)',
    '',
    'Closed loop, each row one scenario at one worker count per process: one process (`--processes 1`) against N serving processes beside the writer. The load generator runs on the same machine and shares its cores; with no more cores than processes the gain, if any, is small.',
    '',
    '| scenario | workers per process | --processes 1 calls/s | p99 ms | --processes N | calls/s | p99 ms | N vs 1 | node CPU µs per call, 1 → N |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const m of many) {
    const one = closed(r).find((x) => x.kind === 'graphene-rpc' && x.scenario === m.scenario && x.workers === m.workers);
    const cpu = (x: RunResult | undefined) => (x?.cpuUs ? nodeCpu(x.cpuUs).toFixed(1) : 'n/a');
    out.push(
      `| ${m.scenario} | ${m.workers} | ${one ? one.throughput : 'n/a'} | ${one ? p99(one) : 'n/a'} | ${m.processes} | ${m.throughput}${saturated(m) ? ' ⚠' : ''} | ${p99(m)} | ${ratio(m.throughput, one?.throughput)} | ${cpu(one)} → ${cpu(m)} |`,
    );
  }
  return out;
}

/**
 * Front ends as serving threads (--serving-threads) against as many serving processes and against one
 * process, closed loop, at the same worker count per front end: calls/s, node CPU per call and memory,
 * the comparison docs/design/front-end-threads.md records.
 */
function threadsSection(r: BenchReport): string[] {
  const threads = closed(r).filter((x) => x.kind === 'graphene-rpc-threads');
  if (threads.length === 0) return [];
  const out = [
    '## Serving threads or serving processes (`--serving-threads`, `--processes`)',
    '',
    "Closed loop, each row one scenario at one worker count per front end: one process (`--processes 1`), N serving processes beside the writer, and N serving threads in the writer's process. Memory is the node's resident set (all its processes summed) and, in brackets, its proportional set (pages shared between processes, such as the store's, counted once). The load generator shares the cores; with no more cores than front ends the gain, if any, is small.",
    '',
    '| scenario | workers per front end | N | one process calls/s | N processes calls/s | N threads calls/s | threads vs processes | node CPU µs per call: one / processes / threads | MiB: one / processes / threads |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  const cpu = (x: RunResult | undefined) => (x?.cpuUs ? nodeCpu(x.cpuUs).toFixed(1) : 'n/a');
  const mem = (x: RunResult | undefined) => (x ? `${x.nodeRssMiB}${x.nodePssMiB !== undefined ? ` (${x.nodePssMiB})` : ''}` : 'n/a');
  const calls = (x: RunResult | undefined) => (x ? `${x.throughput}${saturated(x) ? ' ⚠' : ''}${x.errors > 0 ? ` ✗ ${x.errors} errors` : ''}` : 'n/a');
  for (const t of threads) {
    const one = closed(r).find((x) => x.kind === 'graphene-rpc' && x.scenario === t.scenario && x.workers === t.workers);
    const procs = closed(r).find((x) => x.kind === 'graphene-rpc-processes' && !x.auto && x.scenario === t.scenario && x.workers === t.workers && x.processes === t.servingThreads);
    out.push(
      `| ${t.scenario} | ${t.workers} | ${t.servingThreads} | ${calls(one)} | ${calls(procs)} | ${calls(t)} | ${ratio(t.throughput, procs?.throughput)} | ${cpu(one)} / ${cpu(procs)} / ${cpu(t)} | ${mem(one)} / ${mem(procs)} / ${mem(t)} |`,
    );
  }
  return out;
}

/** CPU per call by thread, for every closed-loop run that measured it. */
function cpuSection(r: BenchReport): string[] {
  const runs = closed(r).filter((x) => x.cpuUs);
  if (runs.length === 0) return [];
  const out = [
    '## Where each microsecond goes',
    '',
    'CPU time per completed call, from each thread\'s counters in `/proc/<pid>/task/*/stat` before and after the run (10 ms ticks, so short runs are coarse). graphene-rpc\'s pool threads are known by the kernel thread id each logs when it starts; for the conventional stack and the ceiling, the main thread is all of their JavaScript. The load generator (the bench process) shares the cores. The switches per call (from each thread\'s `/proc/<pid>/task/*/status`) count the times its threads slept or were preempted: on a virtual machine, waking a sleeping thread is a large part of what a call that crosses threads costs.',
    '',
    '| scenario | system | main thread (front end) µs | pool workers µs | other threads µs | node total µs | load generator µs | switches per call: front end / workers / other |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const x of runs) {
    const c = x.cpuUs!;
    const sw = c.switches ? `${c.switches.frontEnd} / ${c.switches.workers} / ${c.switches.other}` : 'n/a';
    out.push(`| ${x.scenario} | ${x.system} | ${c.frontEnd} | ${c.workers} | ${c.other} | ${nodeCpu(c).toFixed(1)} | ${c.generator} | ${sw} |`);
  }
  return out;
}

/** The front end's collector pauses in every graphene-rpc run that read them. */
function gcSection(r: BenchReport): string[] {
  const runs = r.runs.filter((x) => x.frontEndGc);
  if (runs.length === 0) return [];
  const out = [
    "## The front end's collector",
    '',
    "The front-end thread's garbage collections during each graphene-rpc run, from its own `nodejs_gc_duration_seconds` (GET /metrics before and after the run). Every call that arrives while the thread is stopped waits the pause out, so the share of the run spent in pauses is roughly the share of calls that see one: where it reaches 1%, the p99 includes them. Young collections come as the front end allocates; full ones as what survives them fills the old generation.",
    '',
    '| scenario | system | loop | calls/s | young collections | full collections | paused ms | share of the run | mean pause ms | p99 ms |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const x of runs) {
    const g = x.frontEndGc!;
    const n = g.minor + g.major;
    const loop = x.loop === 'open' ? `open @ ${x.offeredRate}/s` : 'closed';
    const p99 = Object.values(x.latency)[0]?.p99;
    out.push(`| ${x.scenario} | ${x.system} | ${loop} | ${x.throughput} | ${g.minor} | ${g.major} | ${g.pausedMs} | ${(g.share * 100).toFixed(2)}% | ${n > 0 ? (g.pausedMs / n).toFixed(2) : 'n/a'} | ${p99 ?? 'n/a'} |`);
  }
  return out;
}

/** The throughput projected for more cores, and the model checked on this machine. */
function scalingSection(r: BenchReport): string[] {
  const scenarios = [...new Set(closed(r).map((x) => x.scenario))];
  const rows: string[] = [];
  for (const s of scenarios) {
    const candidates = [bestGraphene(r, s), ...closed(r).filter((x) => x.scenario === s && (x.kind === 'conventional' || x.kind === 'conventional-cluster'))];
    for (const x of candidates) {
      if (!x?.cpuUs) continue;
      const p = PROJECTED_CORES.map((c) => projectThroughput(x, c));
      const bound = 1e6 / Math.max(x.cpuUs.frontEnd, 1e-3);
      rows.push(`| ${s} | ${x.system} | ${x.throughput} | ${p.join(' | ')} | ${x.kind === 'conventional-cluster' ? 'none' : Math.round(bound)} |`);
    }
  }
  if (rows.length === 0) return [];
  const out = [
    '## Scaling projection',
    '',
    'The model: every call passes one serial thread (graphene-rpc\'s front end; a single-process server\'s main thread), so throughput can never pass 1,000,000 / that thread\'s µs per call; below that bound, the node\'s total CPU per call (all its threads) is spread over the cores, so throughput is cores × 1,000,000 / total µs. It assumes the clients run elsewhere and that per-call costs do not grow with cores (memory bandwidth, LMDB\'s reader table and cache effects are not modelled).',
    '',
    `| scenario | system | measured calls/s (${r.machine.cpus} CPUs, generator included) | ${PROJECTED_CORES.map((c) => `${c} cores`).join(' | ')} | serial bound calls/s |`,
    `|---|---|---|${PROJECTED_CORES.map(() => '---').join('|')}|---|`,
    ...rows,
  ];
  if (r.scalingCheck && r.scalingCheck.length > 0) {
    out.push(
      '',
      '### The model checked on this machine',
      '',
      'graphene-rpc at the same worker count pinned to CPU 0 with `taskset` (the load generator pinned to CPU 1), and unpinned on all CPUs (the sweep\'s run, sharing them with the generator). Each throughput is predicted from the other run\'s CPU per call: one CPU from the all-CPU run\'s costs; all CPUs from the one-CPU run\'s costs, less what the generator uses of them.',
      '',
      '| scenario | workers | 1 CPU measured | 1 CPU predicted | error | all CPUs measured | all CPUs predicted | error |',
      '|---|---|---|---|---|---|---|---|',
    );
    const err = (m: number, p: number) => `${p > m ? '+' : ''}${(((p - m) / m) * 100).toFixed(0)}%`;
    for (const c of r.scalingCheck) {
      out.push(`| ${c.scenario} | ${c.workers} | ${c.oneCpu.measured} | ${c.oneCpu.predicted} | ${err(c.oneCpu.measured, c.oneCpu.predicted)} | ${c.allCpus.measured} (${c.allCpus.cpus}) | ${c.allCpus.predicted} | ${err(c.allCpus.measured, c.allCpus.predicted)} |`);
    }
  }
  return out;
}
