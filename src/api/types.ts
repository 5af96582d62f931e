// The vocabulary of API-set tables: what a method takes and where it runs. Tables are data, read by
// the call pipeline (argument counts, routing) and mirrored by both sides' handler tables, which the
// compiler checks against them: a method cannot exist on one side only, nor run on the wrong side.

export interface ParamSpec {
  readonly name: string;
  /** fc::optional<> parameters may be left out at the end of the argument list, or be null */
  readonly optional?: boolean;
}

/**
 * Where a method runs: 'front' in the front end's thread (it reads or changes connection state, or
 * drives the block producer), 'pool' in a worker thread (it reads the chain store).
 */
export type RunsIn = 'front' | 'pool';

export interface MethodSpec {
  readonly params: readonly ParamSpec[];
  /** overrides the set's `runsIn` for this method */
  readonly runsIn?: RunsIn;
}

export interface ApiSetSpec<M extends Record<string, MethodSpec> = Record<string, MethodSpec>, R extends RunsIn = RunsIn> {
  /** the login API getter that hands out this set, e.g. "history" */
  readonly name: string;
  /** the api-access name that grants it, e.g. "history_api" */
  readonly accessName: string;
  /** where its methods run unless a method says otherwise */
  readonly runsIn: R;
  readonly methods: M;
}

/** Shorthands for tables. */
export const req = (name: string): ParamSpec => ({ name });
export const opt = (name: string): ParamSpec => ({ name, optional: true });
export const method = (...params: ParamSpec[]): MethodSpec => ({ params });
/** A method of a pool-served set that runs in the front end (subscriptions, writes: connection or node state). */
export const frontEnd = (...params: ParamSpec[]): { readonly params: ParamSpec[]; readonly runsIn: 'front' } => ({ params, runsIn: 'front' });

/** Number of arguments a call must carry: everything up to the last non-optional parameter. */
export function requiredArgs(spec: MethodSpec): number {
  let n = 0;
  spec.params.forEach((p, i) => {
    if (!p.optional) n = i + 1;
  });
  return n;
}

/** Where one method of a set runs, as data (the run layer's routing). */
export const runsIn = (set: ApiSetSpec, spec: MethodSpec): RunsIn => spec.runsIn ?? set.runsIn;

export const defineApiSet = <const M extends Record<string, MethodSpec>, const R extends RunsIn>(spec: ApiSetSpec<M, R>): ApiSetSpec<M, R> => spec;

// ---- the same routing, as types: each side's handler table must cover exactly its methods ----

type Methods<S extends ApiSetSpec> = S['methods'];
type Where<S extends ApiSetSpec, K extends keyof Methods<S>> = Methods<S>[K] extends { readonly runsIn: infer W } ? W : S['runsIn'];

/** The names of a set's methods that run on side `W`. */
export type MethodsIn<S extends ApiSetSpec, W extends RunsIn> = { [K in keyof Methods<S>]: Where<S, K> extends W ? K : never }[keyof Methods<S>];

/** A handler table for side `W` of set `S`: one handler `H` per method that runs there, and no other. */
export type HandlerTable<S extends ApiSetSpec, W extends RunsIn, H> = { readonly [K in MethodsIn<S, W>]: H };
