// Handlers that walk many rows without writing them (a history filtered by operation type, a key's or
// an account's references) look at the call's deadline as they go, as writes do (ReplyWriter.skipped):
// a call past its budget stops in the middle of such a walk. Run against a real store built through
// the chain writer, with the worker's own handlers and reply writer; the deadline is already past
// when the handler starts, so the only way the call can end with -32012 is a look at it inside the walk.
import test from 'ava';
import { makeChain, op, DEV_PUB } from './helpers/chain.js';
import { openChainStore } from '../src/chain/store/store.js';
import { buildConfig } from '../src/config.js';
import { handlerFor } from '../workers/handlers/index.js';
import { ReplyWriter } from '../workers/reply-writer.js';
import type { WorkerContext } from '../workers/context.js';
import { DEADLINE_CHECK_EVERY } from '../src/tuning.js';

/** Rows each walk below goes through: several times what the writer counts between two looks at the clock. */
const ROWS = 4 * DEADLINE_CHECK_EVERY;

async function walkedChain(t: import('ava').ExecutionContext): Promise<WorkerContext> {
  const chain = makeChain(t);
  // ROWS accounts with the development key (key references) whose active authority also names
  // nathan (account references), then ROWS transfers from nathan (history).
  const referencingNathan = (name: string) => {
    const create = op.accountCreate(name) as [number, { active: { account_auths: [string, number][] } }];
    create[1].active.account_auths = [['1.2.6', 1]];
    return create as unknown as ReturnType<typeof op.accountCreate>;
  };
  chain.block(Array.from({ length: ROWS }, (_, i) => referencingNathan(`walker-${i}`)));
  chain.block(Array.from({ length: ROWS }, () => op.transfer('1.2.6', '1.2.0', 1)));
  await chain.store.close();
  const store = openChainStore(chain.dataDir, { readOnly: true });
  t.teardown(() => store.close());
  return { store, config: buildConfig({}) };
}

const run = (ctx: WorkerContext, set: string, method: string, params: unknown[], deadline: number) => {
  const out = new ReplyWriter({ maxBytes: Number.POSITIVE_INFINITY, deadline, budgetMs: 10 });
  return Promise.resolve(handlerFor(set, method)!(ctx, params, out)).then(() => JSON.parse(Buffer.from(out.finish()).toString()));
};

const WALKS: [string, string, unknown[], (result: any) => boolean][] = [
  // No operation of type 99: every row of nathan's history is read and turned down.
  ['history', 'get_account_history_operations', ['nathan', 99, '1.11.0', '1.11.0', 100], (r) => r.length === 0],
  ['database', 'get_key_references', [[DEV_PUB]], (r) => r[0].length >= ROWS],
  ['database', 'get_account_references', ['nathan'], (r) => r.length >= ROWS],
];

test('walks that skip or gather rows without writing them stop at a deadline that has passed', async (t) => {
  const ctx = await walkedChain(t);
  for (const [set, method, params, check] of WALKS) {
    // With time to spare each walk finishes (so it does walk its rows)…
    const result = await run(ctx, set, method, params, Number.POSITIVE_INFINITY);
    t.true(check(result), `${method} answers in full with no deadline`);
    // …and past its deadline it stops inside the walk: it writes almost nothing before it.
    const error = await t.throwsAsync(async () => run(ctx, set, method, params, Date.now() - 1), undefined, method);
    t.is((error as unknown as { wire?: { code: number } }).wire?.code, -32012, method);
  }
});
