// store-reads.ts keeps account names per read snapshot: get_full_accounts names three accounts for
// each one it returns, mostly the same few registrars. A name is only trusted within the snapshot
// it was read in, because a pending account that is rolled back frees its id for another account.
import test from 'ava';
import { makeChain, DEV_WIF, DEV_PUB } from './helpers/chain.js';
import { BlockProducer } from '../src/chain/node/producer.js';
import { privateKeyFromWif } from '../src/chain/crypto/keys.js';
import { accountCreateOp } from '../src/chain/protocol/operation-builders.js';
import { buildTransaction, headOf, signTransaction } from '../src/chain/protocol/transaction-builder.js';
import type { FeeSchedule } from '../src/chain/protocol/fees.js';
import { createLogger } from '../src/log.js';
import { buildConfig } from '../src/config.js';
import { accountName } from '../workers/handlers/database/store-reads.js';
import type { WorkerContext } from '../workers/context.js';

test('an account name is read again in a new snapshot, so an id freed by a rollback names its new account', (t) => {
  const chain = makeChain(t);
  const key = privateKeyFromWif(DEV_WIF);
  const producer = new BlockProducer(chain.store, key, 0, createLogger('silent'));
  const read = <T>(k: [number, number, number]): T => JSON.parse(chain.store.objects.get(k)!.toString('utf8')) as T;
  const fees = read<{ parameters: { current_fees: FeeSchedule } }>([2, 0, 0]).parameters.current_fees;
  const head = headOf(read([2, 1, 0]));
  const create = (name: string, expiresIn: number) => signTransaction(chain.chainId, buildTransaction(head, [accountCreateOp(name, DEV_PUB, '1.2.6')], { expiresIn, fees }), [key]);

  producer.push(create('first-holder', 10));
  const ctx: WorkerContext = { store: chain.store, config: buildConfig({}), snapshot: 1 };
  t.is(accountName(ctx, '1.2.7'), 'first-holder');
  // The pending account expires before its block: rolled back, and 1.2.7 goes to the next one.
  producer.produce(head.time + 60);
  producer.push(signTransaction(chain.chainId, buildTransaction(headOf(read([2, 1, 0])), [accountCreateOp('second-holder', DEV_PUB, '1.2.6')], { expiresIn: 3600, fees }), [key]));
  t.is(accountName(ctx, '1.2.7'), 'first-holder', 'within one snapshot the name is not read again');
  ctx.snapshot = 2;
  t.is(accountName(ctx, '1.2.7'), 'second-holder');
  t.is(accountName({ store: chain.store, config: ctx.config }, '1.2.7'), 'second-holder', 'a context without snapshots never caches');
});
