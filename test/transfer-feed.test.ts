// The subscription pump of the deposit feed (src/subscriptions/transfer-feed.ts) over a real store and
// the real page handler, with the pages' answers held back until the test lets them go: blocks that
// arrive while a page is being read, in every order, still give each transfer once and in order.
import test, { type ExecutionContext } from 'ava';
import { makeChain, op } from './helpers/chain.js';
import { TransferFeed, cutPage, type FeedSubscriber } from '../src/subscriptions/transfer-feed.js';
import { CHAIN_START } from '../src/chain/plugins/transfer-index.js';
import { depositsHandlers } from '../workers/handlers/deposits.js';
import { ReplyWriter } from '../workers/reply-writer.js';
import { defaultConfig } from '../src/config.js';
import { createLogger } from '../src/log.js';

const NATHAN = '1.2.6';

/** A session as the feed sees it: notices collected, never paused or closed unless the test says. */
function subscriber() {
  const notices: string[] = [];
  const closers: (() => void)[] = [];
  const s: FeedSubscriber & { closed: boolean } = {
    closed: false,
    get isClosed() {
      return this.closed;
    },
    isPaused: false,
    log: createLogger('silent'),
    sendNotice: (text) => void notices.push(text),
    onClose: (fn) => {
      closers.push(fn);
      return () => closers.splice(closers.indexOf(fn), 1);
    },
  };
  const amounts = () => notices.flatMap((n) => (JSON.parse(n) as { params: [number, [{ amount: { amount: number } }[]]] }).params[1][0].map((x) => x.amount.amount));
  return { s, notices, amounts, close: () => ((s.closed = true), closers.splice(0).forEach((f) => f())) };
}

/**
 * A chain, and a feed whose page reads run the real handler against its store at once (the page is
 * what the store held then) and answer when the test releases them.
 */
function setup(t: ExecutionContext, pageSize: number) {
  const chain = makeChain(t);
  const config = defaultConfig();
  const held: { release: () => void }[] = [];
  const reads = { n: 0 };
  const feed = new TransferFeed(
    async (_owner, params) => {
      reads.n++;
      const out = new ReplyWriter();
      chain.store.root.resetReadTxn();
      depositsHandlers.get_transfers({ store: chain.store, config }, params, out);
      const text = Buffer.from(out.finish()).toString('utf8');
      await new Promise<void>((resolve) => held.push({ release: resolve }));
      return text;
    },
    { pageSize: () => pageSize },
  );
  /** Lets every held read answer, and those they start, until none is held. */
  const settle = async () => {
    for (;;) {
      await new Promise((r) => setImmediate(r));
      const next = held.shift();
      if (!next) return;
      next.release();
    }
  };
  /** Lets one held read answer (and what it does next run up to its next read). */
  const releaseOne = async () => {
    held.shift()!.release();
    await new Promise((r) => setImmediate(r));
  };
  const transfers = (...amounts: number[]) => chain.block(amounts.map((a) => op.transfer(NATHAN, '1.2.0', a)));
  return { chain, feed, settle, releaseOne, transfers, held, reads };
}

test('a block applied while a backlog page is read: its transfers follow the backlog, each once, in order', async (t) => {
  const { feed, settle, releaseOne, transfers, held } = setup(t, 2);
  transfers(1, 2, 3);
  transfers(4, 5);
  const sub = subscriber();
  t.true(feed.subscribe(sub.s, { callback: 7n, accounts: [6], irreversibleOnly: false, cursor: CHAIN_START }, 10));
  t.is(held.length, 1, 'the first backlog page is being read');
  // Blocks come while it is read: the read saw the store before them.
  feed.onBlock(transfers(6, 7));
  feed.onBlock(transfers(8));
  await releaseOne();
  t.deepEqual(sub.amounts(), [1, 2]);
  feed.onBlock(transfers(9, 10, 11));
  await settle();
  t.deepEqual(sub.amounts(), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  // Live: one block, one read, one notice.
  feed.onBlock(transfers(12));
  await settle();
  t.deepEqual(sub.amounts(), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  t.is(sub.notices.at(-1)!.startsWith('{"method":"notice","params":[7,[['), true);
});

test('a block during a live read is read after it; a block that names none of its accounts costs no read', async (t) => {
  const { feed, settle, releaseOne, transfers, held, reads, chain } = setup(t, 100);
  const sub = subscriber();
  feed.subscribe(sub.s, { callback: 1n, accounts: [6], irreversibleOnly: false, cursor: cutPage(pageNow(chain)).nextCursor }, 10);
  await settle();
  const before = reads.n;
  feed.onBlock(chain.block([op.accountCreate('zed')]));
  await settle();
  t.is(reads.n, before, 'no transfer of its accounts: no read');
  feed.onBlock(transfers(1));
  t.is(held.length, 1);
  feed.onBlock(transfers(2));
  await releaseOne();
  await settle();
  t.deepEqual(sub.amounts(), [1, 2]);
});

test('with irreversible_only a transfer waits for its block to be irreversible, read again at each block until then', async (t) => {
  const { feed, settle, transfers, chain } = setup(t, 100);
  const sub = subscriber();
  transfers(1);
  // From the chain's start: block 1 is irreversible once block 2 is applied.
  feed.subscribe(sub.s, { callback: 1n, accounts: [6], irreversibleOnly: true, cursor: CHAIN_START }, 10);
  await settle();
  t.deepEqual(sub.amounts(), []);
  feed.onBlock(chain.block([op.accountCreate('zed')]));
  await settle();
  t.deepEqual(sub.amounts(), [1]);
  feed.onBlock(transfers(2));
  await settle();
  t.deepEqual(sub.amounts(), [1]);
  feed.onBlock(chain.block([op.accountCreate('zoe')]));
  await settle();
  t.deepEqual(sub.amounts(), [1, 2]);
});

test('a closed session\'s subscriptions end: no read after it, and it is no longer held', async (t) => {
  const { feed, settle, transfers, reads } = setup(t, 100);
  const sub = subscriber();
  feed.subscribe(sub.s, { callback: 1n, accounts: [6], irreversibleOnly: false, cursor: CHAIN_START }, 10);
  await settle();
  t.is(feed.subscriptions, 1);
  sub.close();
  t.is(feed.subscriptions, 0);
  const before = reads.n;
  feed.onBlock(transfers(1));
  await settle();
  t.is(reads.n, before);
  t.deepEqual(sub.notices, []);
});

/** A page of none from the head: its next cursor is "from now". */
function pageNow(chain: ReturnType<typeof makeChain>): string {
  const out = new ReplyWriter();
  depositsHandlers.get_transfers({ store: chain.store, config: defaultConfig() }, [[NATHAN], null, 0], out);
  return Buffer.from(out.finish()).toString('utf8');
}
