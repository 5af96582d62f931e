// Settings shared by the property tests (fast-check). In `npm test` each property runs from a fixed
// seed, so a failure found there is found again by the next run and by whoever reads the report;
// PROPERTY_SEED and PROPERTY_RUNS in the environment explore further (`PROPERTY_SEED=random` for a
// new seed each time, printed). fast-check prints the seed and the shrunk counterexample on failure.
import type { ExecutionContext } from 'ava';
import fc from 'fast-check';

const DEFAULT_SEED = 20240514;

/** PROPERTY_NO_SHRINK=1 reports the first failing input as found, without shrinking it. */
const NO_SHRINK = process.env.PROPERTY_NO_SHRINK === '1';

/** The seed of this run of the property tests. */
export const PROPERTY_SEED: number =
  process.env.PROPERTY_SEED === 'random' ? (Date.now() ^ (Math.random() * 0x7fffffff)) | 0 : Number(process.env.PROPERTY_SEED ?? DEFAULT_SEED);

/** Runs a property `runs` times (times PROPERTY_RUNS/100 when that is set), seeded, and logs how many distinct inputs it saw. */
export function checkProperty<Ts extends [unknown, ...unknown[]]>(
  t: ExecutionContext,
  runs: number,
  arbitraries: { [K in keyof Ts]: fc.Arbitrary<Ts[K]> },
  predicate: (...args: Ts) => void,
  key: (...args: Ts) => string = (...args) => fc.stringify(args),
): number {
  const scale = process.env.PROPERTY_RUNS ? Number(process.env.PROPERTY_RUNS) / 100 : 1;
  const distinct = new Set<string>();
  const property = fc.property(...(arbitraries as unknown as [fc.Arbitrary<unknown>]), (...args: unknown[]) => {
    distinct.add(key(...(args as Ts)));
    predicate(...(args as Ts));
  });
  fc.assert(property, { seed: PROPERTY_SEED, numRuns: Math.max(1, Math.round(runs * scale)), endOnFailure: NO_SHRINK, includeErrorInReport: true });
  t.log(`seed ${PROPERTY_SEED}: ${distinct.size} distinct cases`);
  return distinct.size;
}

/** The same for an asynchronous predicate. */
export async function checkAsyncProperty<Ts extends [unknown, ...unknown[]]>(
  t: ExecutionContext,
  runs: number,
  arbitraries: { [K in keyof Ts]: fc.Arbitrary<Ts[K]> },
  predicate: (...args: Ts) => Promise<void>,
  opts: { key?: (...args: Ts) => string; seedOffset?: number; quiet?: boolean } = {},
): Promise<number> {
  const key = opts.key ?? ((...args: Ts) => fc.stringify(args));
  const scale = process.env.PROPERTY_RUNS ? Number(process.env.PROPERTY_RUNS) / 100 : 1;
  const distinct = new Set<string>();
  const property = fc.asyncProperty(...(arbitraries as unknown as [fc.Arbitrary<unknown>]), async (...args: unknown[]) => {
    distinct.add(key(...(args as Ts)));
    await predicate(...(args as Ts));
  });
  const seed = PROPERTY_SEED + (opts.seedOffset ?? 0);
  await fc.assert(property, { seed, numRuns: Math.max(1, Math.round(runs * scale)), endOnFailure: NO_SHRINK, includeErrorInReport: true });
  if (!opts.quiet) t.log(`seed ${seed}: ${distinct.size} distinct cases`);
  return distinct.size;
}
