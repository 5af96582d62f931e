// The vocabulary of API-set tables: what a method takes and where it runs. Tables are data, read by
// the dispatcher (argument counts, routing) and mirrored by the worker handlers (type-checked).

export interface ParamSpec {
  readonly name: string;
  /** fc::optional<> parameters may be left out at the end of the argument list, or be null */
  readonly optional?: boolean;
}

export interface MethodSpec {
  readonly params: readonly ParamSpec[];
  /** 'main': runs in the front end even in a pool-served set (it changes session state) */
  readonly runsIn?: 'main';
}

export interface ApiSetSpec<M extends Record<string, MethodSpec> = Record<string, MethodSpec>> {
  /** the login API getter that hands out this set, e.g. "history" */
  readonly name: string;
  /** the api-access name that grants it, e.g. "history_api" */
  readonly accessName: string;
  /** where its handlers run: the front end (session state) or the worker pool (chain reads) */
  readonly runsIn: 'main' | 'pool';
  readonly methods: M;
}

/** Shorthands for tables. */
export const req = (name: string): ParamSpec => ({ name });
export const opt = (name: string): ParamSpec => ({ name, optional: true });
export const method = (...params: ParamSpec[]): MethodSpec => ({ params });
/** A method of a pool-served set that runs in the front end (subscriptions: session state). */
export const frontEnd = (...params: ParamSpec[]): { readonly params: ParamSpec[]; readonly runsIn: 'main' } => ({ params, runsIn: 'main' });

/** Number of arguments a call must carry: everything up to the last non-optional parameter. */
export function requiredArgs(spec: MethodSpec): number {
  let n = 0;
  spec.params.forEach((p, i) => {
    if (!p.optional) n = i + 1;
  });
  return n;
}

export const defineApiSet = <M extends Record<string, MethodSpec>>(spec: ApiSetSpec<M>): ApiSetSpec<M> => spec;
