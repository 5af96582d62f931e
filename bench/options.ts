// The options of `graphene-rpc bench`: one table for the parser (bench/run.ts) and for
// `graphene-rpc bench --help`. It imports nothing, so the help is there in an install without the
// benchmark's own packages (they are devDependencies: see README "Install").

/** The adversarial scenarios (bench/adversarial.ts), which run on graphene-rpc alone. */
export const ADVERSARIAL_SCENARIOS = ['adv-expensive', 'adv-pipelined', 'adv-flood', 'adv-nonreaders'] as const;
export type AdversarialName = (typeof ADVERSARIAL_SCENARIOS)[number];

/** Every scenario, in the order they run; `--scenarios` picks some. */
export const SCENARIOS = ['http-small', 'ws-small', 'ws-history', 'ws-mixed', 'ws-market', 'ws-idle', 'ws-deposits', 'ws-exchange', ...ADVERSARIAL_SCENARIOS] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

/** The closed-loop scenarios, which every system runs: the rest are sessions, deposits and attacks. */
export const THROUGHPUT_SCENARIOS: readonly ScenarioName[] = ['http-small', 'ws-small', 'ws-history', 'ws-mixed', 'ws-market'];

/** The scenarios of the ratio targets (the goals' "× the ceiling" and "× the conventional stack"), which paired rounds measure again and the multi-process ceiling runs. */
export const PAIRED_SCENARIOS: readonly ScenarioName[] = ['ws-small', 'http-small', 'ws-history'];

export type Preset = 'full' | 'quick' | 'tiny';

export interface BenchOption {
  readonly name: string;
  /** the value's placeholder; none for a flag */
  readonly value?: string;
  readonly help: string;
  /** the default for a full run, for --quick and for --tiny (the same for all three when one) */
  readonly defaults?: readonly [string, string, string] | string;
}

export const BENCH_OPTIONS: readonly BenchOption[] = [
  { name: 'quick', help: 'a 2,000-account chain and 2.5 s runs: about 4½ minutes with every scenario on 2 CPUs, less with --scenarios (before it starts, the bench prints its estimate for the options given)' },
  { name: 'tiny', help: "a few seconds, figures meaningless (the test suite's smoke test); implies --quick" },
  { name: 'data-dir', value: 'DIR', help: 'the chain to run against; generated there if missing', defaults: ['bench/data/chain-default', 'bench/data/chain-quick', 'bench/data/chain-tiny'] },
  { name: 'accounts', value: 'N', help: 'accounts of the chain generated when --data-dir holds none', defaults: ['100000', '2000', '60'] },
  { name: 'operations', value: 'M', help: 'operations of the chain generated when --data-dir holds none', defaults: ['2000000', '40000', '400'] },
  { name: 'orders', value: 'N', help: 'limit orders of the chain generated when --data-dir holds none (the markets ws-market polls)', defaults: ['20000', '2000', '100'] },
  { name: 'market-depth', value: 'N', help: "ws-market: the depth of each get_order_book (at most the node's --api-limit-get-order-book)", defaults: '50' },
  { name: 'scenarios', value: 'LIST', help: `comma list of ${SCENARIOS.join(', ')}; without ws-small there is no capacity advice`, defaults: 'all' },
  { name: 'workers', value: 'LIST', help: 'graphene-rpc worker counts to sweep', defaults: ['1,2,3,4', '1,2', '1'] },
  { name: 'duration', value: 'S', help: 'seconds per closed- or open-loop run', defaults: ['8', '2.5', '0.2'] },
  {
    name: 'processes',
    value: 'LIST',
    help: "graphene-rpc --processes counts (serving processes beside the writer; README \"Scaling out\") whose closed-loop runs, at each worker count, are reported beside one process'; 1: one process only",
    defaults: '1',
  },
  {
    name: 'serving-threads',
    value: 'LIST',
    help: "graphene-rpc --serving-threads counts (front ends as threads of one process; README \"Scaling out\") whose closed-loop runs, at each worker count, are reported beside one process' and beside as many serving processes; 1: none",
    defaults: '1',
  },
  { name: 'auto', value: 'yes|no', help: "also measure the node at its automatic sizes (--processes auto, --workers auto: the defaults), weighed against the sweep's best", defaults: ['yes', 'yes', 'no'] },
  { name: 'cluster', value: 'N', help: 'processes of the conventional stack in cluster mode (node:cluster), the multi-core peer; 0: leave it out', defaults: ['cores', 'cores', '2'] },
  {
    name: 'scaling-check',
    value: 'yes|no',
    help: 'check the scaling model on this machine: graphene-rpc pinned to one CPU (taskset, the load generator on another) against all CPUs',
    defaults: ['yes', 'yes', 'no'],
  },
  {
    name: 'paired-rounds',
    value: 'N',
    help: "rounds in which graphene-rpc (each scenario at the worker count of its best one-process run), the ceiling and the conventional stack run each ratio target's scenario (ws-small, http-small, ws-history) back to back, the order turned each round; the goals take the median round's ratio (a shared machine drifts between runs minutes apart); 0: the sweep's runs alone",
    defaults: ['3', '1', '1'],
  },
  { name: 'connections', value: 'N', help: "upper bound on each scenario's connections", defaults: ["the scenario's", "the scenario's", '4'] },
  { name: 'open-loop-shares', value: 'LIST', help: 'open-loop rates, as shares of the best closed-loop throughput', defaults: ['0.1,0.3,0.5,0.7,0.9', '0.2,0.5', '0.5'] },
  { name: 'generators', value: 'N', help: 'load-generator threads; auto: one per 4 CPUs', defaults: 'auto' },
  { name: 'p99-target', value: 'MS', help: 'latency target of the capacity advice', defaults: '10' },
  { name: 'deposit-sessions', value: 'N', help: 'ws-deposits: subscribed sessions', defaults: ['10000', '200', '10'] },
  { name: 'deposit-rate', value: 'R', help: 'ws-deposits: transfers per second (each one notice: the p99 needs a few hundred)', defaults: ['50', '25', '10'] },
  { name: 'deposit-seconds', value: 'S', help: 'ws-deposits: seconds of transfers', defaults: ['20', '8', '1.2'] },
  { name: 'exchange-clients', value: 'N', help: 'ws-exchange: pollers (each asks its accounts\' newest history once per block); deposits at --deposit-rate for --deposit-seconds', defaults: ['8', '4', '2'] },
  { name: 'exchange-accounts', value: 'M', help: 'ws-exchange: deposit accounts per poller (all watched by the subscribed watcher too)', defaults: ['100', '25', '5'] },
  { name: 'idle-sessions', value: 'N', help: 'ws-idle sessions', defaults: ['5000', '1000', '20'] },
  { name: 'settle', value: 'S', help: 'pause before and after (2x) measuring ws-idle memory, and after the last deposit (2.5x)', defaults: ['1', '1', '0.1'] },
  { name: 'attack-seconds', value: 'S', help: 'how long the prober measures, idle and under each attack', defaults: ['10', '5', '0.3'] },
  {
    name: 'attack-call',
    value: 'METHOD',
    help: 'the call adv-expensive and adv-pipelined use (get_blocks, get_transaction_hex, get_accounts, get_objects, get_full_accounts, lookup_accounts, get_relative_account_history)',
    defaults: 'the three slowest',
  },
  {
    name: 'client-priorities',
    value: 'yes|no',
    help: "the attackers at nice 19 and the prober's thread at nice -10 while it measures (where the bench may raise it), as clients on other machines; no: all at the node's priority",
    defaults: 'yes',
  },
  { name: 'rss-budget', value: 'MIB', help: 'the RSS the node must stay under next to the non-readers', defaults: '1024' },
  { name: 'scrape-ms', value: 'N', help: "while graphene-rpc's throughput is measured, GET /metrics every N ms (to see what scraping costs)", defaults: 'none' },
  {
    name: 'pending-transactions',
    value: 'N',
    help: "before graphene-rpc's throughput runs, broadcast N transfers that stay pending (the bench's nodes make blocks only on demand), to measure reads over a pending state",
    defaults: '0',
  },
  { name: 'node-log-level', value: 'LEVEL', help: "graphene-rpc's --log-level in the throughput runs (at debug it writes a served line per call, which costs about a third of small-call throughput)", defaults: 'info' },
  { name: 'node-dir', value: 'DIR', help: "run the node of another built checkout (its dist/src/cli.js) for every graphene-rpc run; options its serve --help lacks are left out", defaults: 'this checkout' },
  { name: 'out', value: 'DIR', help: 'where results go (JSON, Markdown report, SVG charts)', defaults: 'bench/results' },
];

/** An option's default under a preset, as text. */
export function benchDefault(name: string, preset: Preset): string {
  const d = BENCH_OPTIONS.find((o) => o.name === name)?.defaults;
  if (d === undefined) throw new Error(`bench option --${name} has no default`);
  return typeof d === 'string' ? d : d[preset === 'full' ? 0 : preset === 'quick' ? 1 : 2];
}

/** `graphene-rpc bench --help`. */
export function benchHelp(): string {
  const left = (o: BenchOption) => `--${o.name}${o.value ? ` ${o.value}` : ''}`;
  const width = Math.max(...BENCH_OPTIONS.map((o) => left(o).length));
  const defaults = (o: BenchOption) => {
    if (o.defaults === undefined) return '';
    if (typeof o.defaults === 'string') return ` (default: ${o.defaults})`;
    const [full, quick, tiny] = o.defaults;
    return ` (default: ${full}; --quick: ${quick}; --tiny: ${tiny})`;
  };
  return [
    'Usage: graphene-rpc bench [options]',
    '',
    'Run the capacity benchmark: graphene-rpc at a sweep of worker counts next to the ceiling (bare',
    'uWebSockets.js) and a conventional stack (Fastify + ws), closed and open loop, and attacks on',
    'graphene-rpc; a table on the terminal and JSON, Markdown and SVG charts in --out. A full run takes',
    'about 17 minutes on 2 CPUs after generating its chain once; before it starts, it prints its estimate',
    'for the options given. It needs the devDependencies (npm ci in a checkout).',
    'See README "Benchmarks".',
    '',
    'Options (any option given wins over the --quick and --tiny defaults):',
    ...BENCH_OPTIONS.map((o) => `  ${left(o).padEnd(width)}  ${o.help}${defaults(o)}`),
    `  ${'-h, --help'.padEnd(width)}  display help for command`,
    '',
  ].join('\n');
}
