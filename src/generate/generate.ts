// `graphene-rpc generate`: a deterministic synthetic chain, written block by block through the chain
// writer, so that what it stores is exactly what real blocks produce (signed transactions, fees,
// balances, history, block ids).
//
// The shape is an exchange's view of BitShares: a few exchange accounts receive a large share of
// all transfers (exchange-1 about 40%, so that it holds at least a quarter of all operations), users
// send to exchanges and to each other, some deposits carry an encrypted memo, and a few user-issued
// assets circulate beside the core asset. With `orders`, users then trade those assets against the
// core asset with limit orders around a fixed price each, so that about half of them fill; and two
// smartcoins backed by the core asset get a feed from nathan, debt positions of some users, orders
// in their markets, and a last feed 8% lower that margin-calls the positions it puts under the
// maintenance ratio against those orders.
//
// Keys are derived, not stored: the private key of account NAME is sha256("graphene-rpc:SEED:NAME"),
// so anyone can sign for a generated account (see README). Development chains only.

import { createHash } from 'node:crypto';
import type { TransactionFlags } from 'lmdb';
import { type ChainStore, type TransferFeedDb, type TransferKey, compareNumberKeys } from '../chain/store/store.js';
import { applyBlock } from '../chain/node/block-applier.js';
import type { OperationJson } from '../chain/protocol/types.js';
import { fcTime, i64, parseFcTime } from '../chain/fc/fc-json.js';
import { formatPublicKey } from '../chain/crypto/public-key.js';
import { Worker } from 'node:worker_threads';
import type { SignReply, SignRequest } from './signer-worker.js';
import { encryptMemo } from '../chain/crypto/memo.js';
import {
  accountCreateOp,
  assetCreateOp,
  assetIssueOp,
  assetPublishFeedOp,
  assetUpdateFeedProducersOp,
  bitassetOptions,
  callOrderUpdateOp,
  limitOrderCreateOp,
  transferOp,
} from '../chain/protocol/operation-builders.js';
import type { FeeSchedule } from '../chain/protocol/fees.js';
import { buildTransaction, type UnsignedTransactionJson } from '../chain/protocol/transaction-builder.js';
import { requiredFee } from '../chain/protocol/fees.js';
import { prng } from '../prng.js';

export interface GenerateOptions {
  /** accounts to create, including the exchanges */
  readonly accounts: number;
  /** transfer operations to write, including the ones that fund users */
  readonly operations: number;
  readonly seed: number;
  /** limit orders to place after the transfers (none by default) */
  readonly orders?: number;
  /** operations per block */
  readonly opsPerBlock?: number;
  /** called after each block with the operations written so far */
  readonly onProgress?: (done: number, total: number) => void;
}

export interface GenerateSummary {
  readonly accounts: number;
  readonly transfers: number;
  readonly operations: number;
  readonly blocks: number;
  readonly busiestAccount: string;
  readonly busiestAccountOps: number;
  /** limit orders placed, and the trades they made (pairs of fill_order) */
  readonly orders: number;
  readonly trades: number;
}

export const EXCHANGES = 5;
/** Share of transfers that go to exchange-1 (the busiest account), and to the other exchanges together. */
const TO_BUSIEST = 0.4;
const TO_OTHER_EXCHANGES = 0.2;
/** Share of transfers with an encrypted memo (each costs an ECDH, the slowest step of generation). */
const MEMO_SHARE = 0.002;
/** Share of transfers in a user-issued asset rather than the core asset. */
const USER_ASSET_SHARE = 0.2;
const USER_ASSETS = ['XUSD', 'XEUR', 'XBTC'];
/** Transfers per transaction: a sender batches a few, so each transaction carries one signature. */
const MAX_OPS_PER_TRX = 20;
/** Largest core transfer amount, and a bound on its fee (basic fee plus a memo's data fee). */
const MAX_CORE_AMOUNT = 1_000_000;
const FEE_BOUND = 200_000;
/** User-asset units issued to each of the first users, and the largest user-asset transfer. */
const ISSUE = 1_000_000_000n;
const MAX_USER_ASSET_AMOUNT = 10_000;
/** Core units one unit of each user asset trades at, and how far (±) an order's price strays from it. */
const MID_PRICES = [20, 30, 500];
const PRICE_SPREAD = 0.05;
/** Orders per transaction, the largest core and user-asset amounts an order sells, and its fee bound. */
const MAX_ORDERS_PER_TRX = 5;
const MAX_ORDER_CORE = 100_000;
const MAX_ORDER_ASSET = 5_000;
/** Smartcoins (market-issued assets backed by the core asset) made with `orders`, and the core units a unit is fed at. */
const SMARTCOINS = ['SUSD', 'SCNY'];
const SMARTCOIN_FEEDS = [25, 4];
/** Debt positions per smartcoin (at most), their collateral (core units) and collateral ratios (‰). */
const BORROWERS = 40;
const MAX_COLLATERAL = 900_000;
const MIN_CR = 1800; // 1.8: above the default initial (and maintenance) ratio of 1.75, under 1.75 / 0.92 after the last feed
const MAX_CR = 3500;
/** Share of the orders placed in the smartcoins' markets, and how far the core asset falls against them in the last feed (‰). */
const SMARTCOIN_ORDER_SHARE = 0.2;
const FEED_DROP = 80;
/** limit_order_create's fee (Core's default: the bundled schedule has no entry of its own). */
const ORDER_FEE_BOUND = 500_000;
/** Share of orders that expire a few blocks after they are placed (the rest never do). */
const EXPIRING_SHARE = 0.1;
/**
 * Blocks applied in one LMDB write transaction: a commit costs about as much as a block's worth of
 * puts, a page that several blocks write is copied once, and `generate` needs durability only at
 * its end. At most 2 × BLOCKS_PER_COMMIT blocks are built ahead of the head, so that a
 * transaction's TaPoS block and its two minutes of validity, counted from the head, hold when it is
 * applied (3 s a block: at most 48 s later).
 */
const BLOCKS_PER_COMMIT = 8;
/** Accounts whose public keys the signer thread derives in one request. */
const KEYS_PER_REQUEST = 1000;


export const accountName = (i: number): string => (i < EXCHANGES ? `exchange-${i + 1}` : `user-${i - EXCHANGES + 1}`);

/** The private key of a generated account. */
export const generatedKey = (seed: number, name: string): Uint8Array => createHash('sha256').update(`graphene-rpc:${seed}:${name}`).digest();

export async function generateChain(store: ChainStore, opts: GenerateOptions, signerKey: Uint8Array): Promise<GenerateSummary> {
  const { seed } = opts;
  const opsPerBlock = opts.opsPerBlock ?? 1000;
  const random = prng(seed);
  const pick = (n: number) => Math.floor(random() * n);
  const dgp0 = JSON.parse(store.objects.get([2, 1, 0])!.toString('utf8')) as { head_block_number: number; time: string };
  if (dgp0.head_block_number !== 0) throw new Error(`the data directory already holds a chain at block ${dgp0.head_block_number}; generate needs a new one`);
  const gp = JSON.parse(store.objects.get([2, 0, 0])!.toString('utf8')) as { parameters: { current_fees: FeeSchedule } };
  const schedule = gp.parameters.current_fees;
  const registrar = store.accountNames.get('nathan');
  if (registrar === undefined) throw new Error('the genesis has no account "nathan" to register and fund the generated accounts');
  const chainId = store.meta.get('chain_id')!;

  let time = parseFcTime(dgp0.time);
  let headId = '0'.repeat(40);
  let headNum = 0;
  let written = 0;
  let blocks = 0;
  let transfers = 0;
  const firstAccount = store.meta.get('next_instance:1.2') !== undefined ? Number(store.meta.get('next_instance:1.2')) : registrar + 1;
  const keys: Uint8Array[] = [];
  const pubs: string[] = [];
  const fundedUsers = Math.max(1, Math.min(opts.accounts - EXCHANGES, Math.floor(opts.operations / 4)));
  const orders = opts.orders ?? 0;
  const borrowers = orders === 0 ? 0 : Math.min(BORROWERS, Math.min(fundedUsers, 1000));
  const opsTarget = opts.accounts + USER_ASSETS.length * (1 + Math.min(fundedUsers, 1000)) + opts.operations + orders + (orders === 0 ? 0 : SMARTCOINS.length * (4 + borrowers));
  let trades = 0;
  let pendingOps = 0;

  // The generator is CPU-bound; it lets the event loop run a few times a second so that the
  // progress bar (which draws on a timer) stays alive.
  let lastYield = Date.now();
  const breathe = async () => {
    if (Date.now() - lastYield < 250) return;
    await new Promise((r) => setImmediate(r));
    lastYield = Date.now();
  };

  // Blocks go through a two-stage pipeline: while the writer applies a batch of blocks, a signer
  // thread signs the transactions of the next ones. Those were built before that batch was applied,
  // so their TaPoS refers to an older block than the head, which is as valid (any of the last 65536
  // blocks will do). The signer thread also derives the accounts' public keys.
  const signer = new Worker(new URL('./signer-worker.js', import.meta.url));
  let nextRequest = 0;
  const waiting = new Map<number, { resolve: (r: SignReply) => void; reject: (e: Error) => void }>();
  signer.on('message', (m: SignReply) => {
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.error === undefined) w?.resolve(m);
    else w?.reject(new Error(`signing failed: ${m.error}`));
  });
  signer.on('error', (err) => {
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
  });
  const ask = (request: (id: number) => SignRequest): Promise<SignReply> =>
    new Promise((resolve, reject) => {
      const id = nextRequest++;
      waiting.set(id, { resolve, reject });
      signer.postMessage(request(id));
    });
  interface Signed {
    readonly signatures: readonly string[];
    readonly ids: readonly string[];
  }
  const sign = (items: { trx: UnsignedTransactionJson; key: Uint8Array }[]): Promise<Signed> =>
    ask((id) => ({ kind: 'sign', id, chainId, items })).then((r) => ({ signatures: r.signatures!, ids: r.ids! }));
  // A failure is awaited where the block is applied; until then it must not count as unhandled.
  const settled = <T>(p: Promise<T>): Promise<T> => {
    p.catch(() => undefined);
    return p;
  };

  interface Sealed {
    readonly trxs: UnsignedTransactionJson[];
    readonly ops: number;
    readonly signed: Promise<Signed>;
  }
  let building: { trx: UnsignedTransactionJson; key: Uint8Array }[] = [];
  /** sealed blocks, sent for signing, not applied yet (oldest first) */
  const sealed: Sealed[] = [];

  // applyBlock opens a write transaction of its own; inside the batch's it would be a nested one,
  // which copies every page it touches from its parent again. Here the blocks write straight into the
  // batch's transaction: a block that failed would leave a part of itself in it, but then the whole
  // batch is dropped (the transaction aborts) and generate fails.
  //
  // The deposit feed's entries of a batch are held until its end and written then in key order:
  // nothing in a block reads the feed, and an entry written next to the last one finds its page in
  // the CPU's caches instead of descending the tree at a random account (on a chain of 50,000
  // accounts: 7.4 → 3.7 µs a put, README "A synthetic chain").
  // heldFeed has putSync alone: were a block ever to read the feed, it would fail here at once
  // rather than read a feed without the batch's entries.
  const feed: [TransferKey, Buffer][] = [];
  const heldFeed = { putSync: (key: TransferKey, value: Buffer) => feed.push([key, value]) > 0 } as unknown as TransferFeedDb;
  const writeFeed = () => {
    feed.sort(([a], [b]) => compareNumberKeys(a, b));
    for (const [key, value] of feed) store.transferFeed.putSync(key, value);
    feed.length = 0;
  };
  const inBatch: ChainStore = {
    ...store,
    transferFeed: heldFeed,
    root: { transactionSync: <T>(f: () => T): T => store.root.transactionSync(f, 0 as TransactionFlags) } as unknown as ChainStore['root'],
  };

  /** Applies the oldest `count` sealed blocks in one write transaction. */
  const applyBatch = async (count: number) => {
    const batch = sealed.splice(0, count);
    if (batch.length === 0) return;
    const signed = await Promise.all(batch.map((b) => b.signed));
    feed.length = 0; // nothing of a batch that failed (generate stops then anyway)
    store.root.transactionSync(() => {
      batch.forEach((b, k) => {
        time += 3;
        const { signatures, ids } = signed[k]!;
        const transactions = b.trxs.map((trx, i) => ({ ...trx, signatures: [signatures[i]!] }));
        const applied = applyBlock(inBatch, { timestamp: time, transactions, transactionIds: ids }, signerKey);
        trades += applied.market.fills.length / 2;
        headId = applied.blockId;
        headNum = applied.blockNum;
        blocks++;
        written += b.ops;
        opts.onProgress?.(written, opsTarget);
      });
      writeFeed();
    });
  };

  /** Closes the block being built: sends it for signing, and applies a batch when enough are ahead. */
  const seal = async () => {
    if (building.length === 0) return;
    const items = building;
    building = [];
    sealed.push({ trxs: items.map((i) => i.trx), ops: pendingOps, signed: settled(sign(items)) });
    pendingOps = 0;
    if (sealed.length >= 2 * BLOCKS_PER_COMMIT) await applyBatch(BLOCKS_PER_COMMIT);
  };

  /** Applies everything built so far (when the next step needs the state it creates). */
  const flush = async () => {
    await seal();
    while (sealed.length > 0) await applyBatch(BLOCKS_PER_COMMIT);
  };

  // Fees: from the fee schedule; an operation whose fee does not depend on its content (a transfer
  // or an issue without a memo, a limit order: a flat fee each) is looked up once per type.
  const flatFees = new Map<number, number | string>();
  const feeOf = (op: OperationJson): number | string => {
    const flat = op[0] === 0 || op[0] === 14 ? op[1].memo === undefined : op[0] === 1;
    if (!flat) return requiredFee(op, schedule);
    let fee = flatFees.get(op[0]);
    if (fee === undefined) flatFees.set(op[0], (fee = requiredFee(op, schedule)));
    return fee;
  };

  /** Builds one transaction paid and signed by `key`'s account, for the block being built. */
  const queue = async (operations: OperationJson[], key: Uint8Array) => {
    // Applied at most 2 × BLOCKS_PER_COMMIT blocks later; two minutes leave ample room.
    building.push({ trx: buildTransaction({ number: headNum, id: headId, time }, operations, { expiresIn: 120, fees: operations.map(feeOf) }), key });
    pendingOps += operations.length;
    if (pendingOps >= opsPerBlock) await seal();
  };

  try {
    // 1. Accounts, registered by nathan, a hundred per transaction. The signer thread derives their
    // public keys a thousand at a time, one request ahead of the accounts being registered.
    const registrarKey = signerKey;
    for (let i = 0; i < opts.accounts; i++) keys.push(generatedKey(seed, accountName(i)));
    const keysOf = (from: number) => settled(ask((id) => ({ kind: 'keys', id, keys: keys.slice(from, from + KEYS_PER_REQUEST) })));
    let nextKeys = keysOf(0);
    let batch: OperationJson[] = [];
    for (let from = 0; from < opts.accounts; from += KEYS_PER_REQUEST) {
      const publicKeys = (await nextKeys).publicKeys!;
      if (from + KEYS_PER_REQUEST < opts.accounts) nextKeys = keysOf(from + KEYS_PER_REQUEST);
      for (let i = from; i < Math.min(opts.accounts, from + KEYS_PER_REQUEST); i++) {
        const pub = formatPublicKey(publicKeys[i - from]!);
        pubs.push(pub);
        batch.push(accountCreateOp(accountName(i), pub, `1.2.${registrar}`));
        if (batch.length === 100) {
          await queue(batch, registrarKey);
          batch = [];
          await breathe();
        }
      }
    }
    if (batch.length > 0) await queue(batch, registrarKey);
    await flush();
    const id = (i: number) => `1.2.${firstAccount + i}`;
    // 2. User-issued assets, issued by nathan to the first users.
    const assetIds: string[] = [];
    for (const symbol of USER_ASSETS) {
      await queue([assetCreateOp(symbol, `1.2.${registrar}`, { description: `${symbol}: a synthetic asset of graphene-rpc generate` })], registrarKey);
      await flush();
      assetIds.push(`1.3.${store.assetSymbols.get(symbol)}`);
    }

    // 3. Funding: nathan sends core to the senders (these count as transfers). Senders are drawn
    // uniformly, so each sends about operations/funded transfers; three times that (and a margin)
    // covers the busiest sender by far.
    const users = opts.accounts - EXCHANGES;
    const funded = fundedUsers;
    const issued = Math.min(funded, 1000);
    // Orders come from the users who hold user assets; their fees and core amounts are covered the same way.
    const orderFunding = orders === 0 ? 0n : BigInt(Math.ceil((3 * orders) / issued) + 5) * BigInt(MAX_ORDER_CORE + ORDER_FEE_BOUND);
    const funding = BigInt(Math.ceil((3 * opts.operations) / funded) + 20) * BigInt(MAX_CORE_AMOUNT + FEE_BOUND) + orderFunding;
    if (funding > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error('too many operations for the number of accounts');
    batch = [];
    for (let u = 0; u < funded; u++) {
      batch.push(transferOp(`1.2.${registrar}`, id(EXCHANGES + u), i64(funding)));
      transfers++;
      if (batch.length === 100) {
        await queue(batch, registrarKey);
        batch = [];
        await breathe();
      }
    }
    for (const asset of assetIds) {
      for (let u = 0; u < issued; u++) {
        batch.push(assetIssueOp(`1.2.${registrar}`, asset, id(EXCHANGES + u), Number(ISSUE)));
        if (batch.length === 100) {
          await queue(batch, registrarKey);
          batch = [];
        }
      }
    }
    if (batch.length > 0) await queue(batch, registrarKey);

    // 4. Transfers: random senders, skewed receivers.
    while (transfers < opts.operations) {
      const sender = EXCHANGES + pick(funded);
      const n = Math.min(1 + pick(MAX_OPS_PER_TRX), opts.operations - transfers);
      const ops: OperationJson[] = [];
      for (let k = 0; k < n; k++) {
        const r = random();
        let to = r < TO_BUSIEST ? 0 : r < TO_BUSIEST + TO_OTHER_EXCHANGES ? 1 + pick(EXCHANGES - 1) : EXCHANGES + pick(users);
        if (to === sender) to = 0;
        const inUserAsset = sender - EXCHANGES < issued && random() < USER_ASSET_SHARE;
        const asset = inUserAsset ? assetIds[pick(assetIds.length)]! : '1.3.0';
        const amount = 1 + pick(inUserAsset ? MAX_USER_ASSET_AMOUNT : MAX_CORE_AMOUNT);
        const memo = random() < MEMO_SHARE ? encryptMemo(keys[sender]!, pubs[to]!, `deposit ${transfers}`, BigInt(transfers + 1)) : undefined;
        ops.push(transferOp(id(sender), id(to), amount, asset, memo as unknown as Record<string, unknown> | undefined));
        transfers++;
      }
      await queue(ops, keys[sender]!);
      await breathe();
    }

    // 5. Smartcoins: nathan creates them, feeds them, and the first users borrow them.
    const smartIds: string[] = [];
    const positions: { user: number; smart: number }[] = [];
    if (orders > 0) {
      for (const [k, symbol] of SMARTCOINS.entries()) {
        await queue([assetCreateOp(symbol, `1.2.${registrar}`, { description: `${symbol}: a synthetic smartcoin of graphene-rpc generate`, bitassetOpts: bitassetOptions() })], registrarKey);
        await flush();
        const smart = `1.3.${store.assetSymbols.get(symbol)}`;
        smartIds.push(smart);
        await queue([assetUpdateFeedProducersOp(`1.2.${registrar}`, smart, [`1.2.${registrar}`])], registrarKey);
        await queue([assetPublishFeedOp(`1.2.${registrar}`, smart, { settlement: [1, smart, SMARTCOIN_FEEDS[k]!, '1.3.0'], cer: [1, smart, SMARTCOIN_FEEDS[k]!, '1.3.0'] })], registrarKey);
        await flush();
        for (let u = 0; u < borrowers; u++) {
          const collateral = 100_000 + pick(MAX_COLLATERAL);
          // The first borrower of each sits just above the initial ratio, so the last feed calls it.
          const cr = u === 0 ? MIN_CR : MIN_CR + pick(MAX_CR - MIN_CR);
          const debt = Math.floor((collateral * 1000) / (SMARTCOIN_FEEDS[k]! * cr));
          await queue([callOrderUpdateOp(id(EXCHANGES + u), [collateral, '1.3.0'], [debt, smart])], keys[EXCHANGES + u]!);
          positions.push({ user: u, smart: k });
        }
        await flush();
      }
    }

    // 6. Orders: users holding user assets buy and sell them for core around each asset's price; a
    // share of them are borrowers selling and buying their smartcoins around the feed price.
    for (let placed = 0; placed < orders; ) {
      if (positions.length > 0 && random() < SMARTCOIN_ORDER_SHARE) {
        const { user, smart } = positions[pick(positions.length)]!;
        const price = SMARTCOIN_FEEDS[smart]! * (1 + (random() * 2 - 1) * PRICE_SPREAD);
        if (random() < 0.5) {
          const core = 1_000 + pick(MAX_ORDER_CORE / 10);
          await queue([limitOrderCreateOp(id(EXCHANGES + user), core, '1.3.0', Math.max(1, Math.round(core / price)), smartIds[smart]!)], keys[EXCHANGES + user]!);
        } else {
          // at most a few hundred units: a position's debt is a few thousand
          const units = 10 + pick(300);
          await queue([limitOrderCreateOp(id(EXCHANGES + user), units, smartIds[smart]!, Math.max(1, Math.round(units * price)), '1.3.0')], keys[EXCHANGES + user]!);
        }
        placed++;
        await breathe();
        continue;
      }
      const sender = EXCHANGES + pick(issued);
      const n = Math.min(1 + pick(MAX_ORDERS_PER_TRX), orders - placed);
      const ops: OperationJson[] = [];
      for (let k = 0; k < n; k++) {
        const a = pick(assetIds.length);
        const price = MID_PRICES[a]! * (1 + (random() * 2 - 1) * PRICE_SPREAD);
        // Applied at most 2 × BLOCKS_PER_COMMIT blocks (48 s) after it is built: 12 s or more are still ahead.
        const expiration = random() < EXPIRING_SHARE ? { expiration: fcTime(time + 60 + pick(240)) } : {};
        if (random() < 0.5) {
          const core = 1_000 + pick(MAX_ORDER_CORE);
          ops.push(limitOrderCreateOp(id(sender), core, '1.3.0', Math.max(1, Math.round(core / price)), assetIds[a]!, expiration));
        } else {
          const units = 10 + pick(MAX_ORDER_ASSET);
          ops.push(limitOrderCreateOp(id(sender), units, assetIds[a]!, Math.max(1, Math.round(units * price)), '1.3.0', expiration));
        }
      }
      placed += n;
      await queue(ops, keys[sender]!);
      await breathe();
    }

    // 7. The smartcoins' last feed, the core asset 8% lower against them: positions it puts at or under
    // the maintenance ratio are margin-called against the orders that sell the smartcoin.
    for (const [k, smart] of smartIds.entries()) {
      await flush();
      await queue([assetPublishFeedOp(`1.2.${registrar}`, smart, { settlement: [1000 - FEED_DROP, smart, SMARTCOIN_FEEDS[k]! * 1000, '1.3.0'], cer: [1, smart, SMARTCOIN_FEEDS[k]!, '1.3.0'] })], registrarKey);
    }
    await flush();
  } finally {
    await signer.terminate();
  }

  const busiest = store.objects.get([2, 6, firstAccount])!;
  return {
    accounts: opts.accounts,
    transfers,
    operations: written,
    blocks,
    busiestAccount: accountName(0),
    busiestAccountOps: Number((JSON.parse(busiest.toString('utf8')) as { total_ops: number | string }).total_ops),
    orders,
    trades,
  };
}
