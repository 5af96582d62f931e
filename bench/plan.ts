// How long a bench run will take, said before it starts. A run is a fixed sequence of phases (see
// runBench in bench/run.ts), each a count of measured runs of --duration and of system starts, so
// its length follows from the options; the report then puts the time it took beside this estimate.

import { ADVERSARIAL_SCENARIOS, PAIRED_SCENARIOS, THROUGHPUT_SCENARIOS, type ScenarioName } from './options.js';

/** The options a run's length depends on. */
export interface PlanInput {
  readonly scenarios: ReadonlySet<ScenarioName>;
  readonly workersSweep: readonly number[];
  readonly processesSweep: readonly number[];
  readonly threadsSweep: readonly number[];
  readonly autoRun: boolean;
  /** the automatic sizes' front ends, when autoRun */
  readonly autoFrontEnds: number;
  readonly clusterProcesses: number;
  readonly scalingCheck: boolean;
  readonly pairedRounds: number;
  readonly openLoopShares: readonly number[];
  readonly durationMs: number;
  readonly settleMs: number;
  readonly depositSeconds: number;
  readonly attackMs: number;
}

export interface PlanPart {
  readonly name: string;
  /** measured runs of --duration (warm-ups and retries included, at their own lengths) */
  readonly runs: number;
  readonly seconds: number;
}

export interface Plan {
  readonly parts: readonly PlanPart[];
  readonly runs: number;
  readonly seconds: number;
}

// From a quick run's log on the 2-CPU machine (2026-11-29): a 2.5 s run is 2.7 s from one to the next
// (connecting, the CPU readings), and a node's stop and the next one's start about 1.2 s.
/** What a measured run costs beyond its duration, s. */
export const RUN_OVERHEAD_S = 0.2;
/** A system's start and stop, s, for one front end; each further front end (process or thread) adds FRONT_END_START_S. */
export const START_S = 1.2;
export const FRONT_END_START_S = 0.5;
/** Open-loop runs the capacity search adds at most beyond the configured shares (its bisections). */
const SEARCH_RUNS = 2;
/** A paired round's warm-up runs last at most this long, s. */
const WARM_UP_S = 1;
/** The adversarial phase's candidate timing, s, and each attack's wind-down (the attackers' drain, the prober's grace), s. */
const CANDIDATES_S = 3;
const ATTACK_DRAIN_S = 1.5;

/**
 * The phases of a run and their estimated seconds. The ceiling's runs are counted twice: on a machine
 * whose load generator it saturates (small ones: the 2-CPU machine, every run) each is measured
 * again with one more generator thread, and more retries than one are rare.
 */
export function planRun(p: PlanInput): Plan {
  const run = p.durationMs / 1000 + RUN_OVERHEAD_S;
  const start = (frontEnds = 1) => START_S + FRONT_END_START_S * (frontEnds - 1);
  const closed = THROUGHPUT_SCENARIOS.filter((s) => p.scenarios.has(s)).length;
  const paired = PAIRED_SCENARIOS.filter((s) => p.scenarios.has(s)).length;
  const parts: PlanPart[] = [];
  const add = (name: string, runs: number, seconds: number) => {
    if (runs > 0 || seconds > 0) parts.push({ name, runs, seconds });
  };
  const w = p.workersSweep.length;
  add('graphene-rpc at each worker count', closed * w, closed > 0 ? w * (start() + closed * run) : 0);
  const fronts = [...p.processesSweep, ...p.threadsSweep];
  add(
    'several front ends',
    closed * w * fronts.length,
    closed > 0 ? fronts.reduce((s, n) => s + w * (start(n) + closed * run), 0) : 0,
  );
  if (p.autoRun && closed > 0) add('the automatic sizes', closed, start(p.autoFrontEnds) + closed * run);
  const openLoop = (p.scenarios.has('ws-small') ? 1 + p.openLoopShares.length + SEARCH_RUNS + 1 : 0) + (p.scenarios.has('ws-mixed') ? 1 + p.openLoopShares.length : 0);
  if (openLoop > 0) add('open loop', openLoop, start() + openLoop * run);
  if (closed > 0) add('the conventional stack', closed, start() + closed * run);
  if (closed > 0 && p.clusterProcesses > 1) add('the conventional cluster', closed, start(p.clusterProcesses) + closed * run);
  const scaling = (['ws-small', 'ws-history'] as const).filter((s) => p.scenarios.has(s)).length;
  if (p.scalingCheck && scaling > 0) add('the scaling check', scaling, start() + scaling * run);
  if (closed > 0) add('the ceiling', 2 * closed, start() + 2 * closed * run);
  if (paired > 0 && p.clusterProcesses > 1) add('the ceiling cluster', 2 * paired, start(p.clusterProcesses) + 2 * paired * run);
  if (paired > 0 && p.pairedRounds > 0) {
    // a short warm-up of each system in each scenario; then each round runs the three, the ceiling twice
    const warmUps = paired * 3;
    const measured = p.pairedRounds * paired * 4;
    add('paired rounds', warmUps + measured, 3 * start() + warmUps * (Math.min(p.durationMs / 1000, WARM_UP_S) + RUN_OVERHEAD_S) + measured * run);
  }
  const settle = p.settleMs / 1000;
  if (p.scenarios.has('ws-idle')) add('ws-idle', 0, 2 * (start() + 3 * settle + 1));
  if (p.scenarios.has('ws-deposits')) add('ws-deposits', 0, start() + p.depositSeconds + 2.5 * settle + 1);
  if (p.scenarios.has('ws-exchange')) add('ws-exchange', 0, start() + p.depositSeconds + 2.5 * settle + 1);
  const attacks = ADVERSARIAL_SCENARIOS.filter((s) => p.scenarios.has(s)).length;
  const attack = p.attackMs / 1000;
  if (attacks > 0) add('attacks', attacks, start() + attack + CANDIDATES_S + attacks * (settle + attack + ATTACK_DRAIN_S));
  const seconds = parts.reduce((s, x) => s + x.seconds, 0);
  return { parts, runs: parts.reduce((s, x) => s + x.runs, 0), seconds };
}

/** 254 → "4 min 14 s"; 40 → "40 s". */
export function minutes(seconds: number): string {
  const s = Math.round(seconds);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
}

/** The line the bench prints before it starts. */
export function planLine(plan: Plan, durationMs: number): string {
  const biggest = [...plan.parts].sort((a, b) => b.seconds - a.seconds).slice(0, 3);
  return (
    `plan: ${plan.runs} measured runs of up to ${durationMs / 1000} s and the phases around them, about ${minutes(plan.seconds)} ` +
    `(most in ${biggest.map((b) => `${b.name} ${minutes(b.seconds)}`).join(', ')})`
  );
}
