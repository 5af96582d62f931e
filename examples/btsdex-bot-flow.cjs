// A trading bot's flow with btsdex 0.7.11 (the JavaScript library many BitShares bots use) against a
// graphene-rpc devnet. btsdex is not a dependency of graphene-rpc and nothing in `npm test` runs this
// file: test/btsdex.test.ts replays the frames it exchanged with the node (test/fixtures/btsdex-flow.txt,
// captured by test/helpers/capture-btsdex.ts). To run it yourself, install btsdex outside the checkout:
//
//   mkdir -p /tmp/btsdex-flow && (cd /tmp/btsdex-flow && npm init -y && npm install btsdex@0.7.11)
//   npm start -- --data-dir /tmp/btsdex-devnet --block-interval 1            # terminal 1: a new devnet
//   NODE_PATH=/tmp/btsdex-flow/node_modules node examples/btsdex-bot-flow.cjs ws://127.0.0.1:8090/ws
//
// It needs a devnet where alice and GOLD do not exist yet (a new data directory). The steps, each
// with btsdex's own objects: nathan (the genesis account with the development key) registers alice,
// creates GOLD, issues 10 GOLD to himself and sends alice 100 BTS; the bot logs in as alice with her
// active key, follows blocks and its account's history through btsdex's events, bids 20 BTS a GOLD for
// 0.5 GOLD, finds the order in the order book, in get_account_limit_orders, in get_full_accounts and in
// get_limit_orders; nathan sells 0.2 GOLD asking 15 and is filled at alice's 20; the bot sees the fill
// arrive as an account event, reads its order (partly filled), the book, its history, the fill order
// history, the market history, the trade history, the ticker and the 24 h volume, and cancels the
// rest. Each step checks what it got and the script exits non-zero at the first surprise.
'use strict';
const BitShares = require('btsdex');
const api = require('btsdex-api');

const url = process.argv[2] ?? 'ws://127.0.0.1:8090/ws';
const NATHAN = '5KQwrPbwdL6PhXujxW37FSSQZ1JiwsST4cqQzDeyXtP79zkvFD3';
// alice's keys: worthless keys made for this flow, PrivateKey.fromSeed("graphene-rpc btsdex flow alice <role>").
const ALICE = {
  owner: ['5JaXCBRKMLa2NsCLM5tzM43y2cuxNGMgxqgzfwd92nknYiUkHoA', 'BTS5AQhrfSUoS55PymeSxzwqQD7tNETZ77y9dSKHZN7TimwrsBnv7'],
  active: ['5Jykoh3BiotCFMWkHkpoYBzCTZ62RyUxbG4KLncbQ5LRdJHHhJx', 'BTS7o3Z1UKxhszmm9FLhxCjf5rfjGBjLGAtxPsWkvJVRt38K4nh4j'],
  memo: ['5JuWKthjQFKXCW6fcLhdKp492eG7XxbUBCaP5Eioc4fWrHXBeyo', 'BTS8XPSyP3xvUoRqRNeohJQMjzMsxvYNDPHBFhKdZHTAW5RDJqbwN'],
};
const ZERO_FEE = { amount: 0, asset_id: '1.3.0' };
const authority = (key) => ({ weight_threshold: 1, account_auths: [], key_auths: [[key, 1]], address_auths: [] });

// btsdex-api reports the API sets the node refuses at login (block, asset and crypto: like BitShares
// Core without an access file, the node grants database, network_broadcast, history, orders and
// custom_operations) as warnings; show them.
api.setLogger({ info: null, warn: (...a) => console.log('btsdex warns:', ...a), error: console.error, debug: null });

async function step(name, f) {
  const result = await f();
  console.log(`${name} ->`, JSON.stringify(result));
  return result;
}

function check(ok, what) {
  if (!ok) throw new Error(what);
}

/** The devnet's chain id (the sha256 of its genesis): btsdex refuses a chain it does not know. */
async function chainIdOf(wsUrl) {
  if (process.argv[3]) return process.argv[3];
  const u = new URL(wsUrl);
  const res = await fetch(`${u.protocol === 'wss:' ? 'https' : 'http'}://${u.host}/rpc`, { method: 'POST', body: '{"id":1,"method":"get_chain_id","params":[]}' });
  return (await res.json()).result;
}

async function main() {
  api.addConfig({ name: 'GrapheneRpcDevnet', coreAsset: 'BTS', addressPrefix: 'BTS', chainId: await chainIdOf(url) });
  await BitShares.connect(url, false);
  // A bot acts on every block: btsdex's block event (set_subscribe_callback, then get_objects 2.1.0).
  let blocks = 0;
  BitShares.subscribe('block', () => void blocks++);

  // Setup by nathan: alice, the asset GOLD, funds.
  const nathan = new BitShares('nathan', NATHAN);
  const nathanId = (await BitShares.accounts.nathan).id;
  await step('create alice', async () => {
    const tx = nathan.newTx();
    tx.account_create({
      fee: ZERO_FEE,
      registrar: nathanId,
      referrer: nathanId,
      referrer_percent: 0,
      name: 'alice',
      owner: authority(ALICE.owner[1]),
      active: authority(ALICE.active[1]),
      options: { memo_key: ALICE.memo[1], voting_account: '1.2.5', num_witness: 0, num_committee: 0, votes: [], extensions: [] },
      extensions: {},
    });
    return (await tx.broadcast())[0].trx.operation_results;
  });
  await step('create GOLD', async () => {
    const tx = nathan.newTx();
    tx.asset_create({
      fee: ZERO_FEE,
      issuer: nathanId,
      symbol: 'GOLD',
      precision: 4,
      common_options: {
        max_supply: '1000000000000',
        market_fee_percent: 0,
        max_market_fee: '0',
        issuer_permissions: 0,
        flags: 0,
        core_exchange_rate: { base: { amount: 1, asset_id: '1.3.0' }, quote: { amount: 1, asset_id: '1.3.1' } },
        whitelist_authorities: [],
        blacklist_authorities: [],
        whitelist_markets: [],
        blacklist_markets: [],
        description: 'gold',
        extensions: {},
      },
      is_prediction_market: false,
      extensions: [],
    });
    return (await tx.broadcast())[0].trx.operation_results;
  });
  await step('issue 10 GOLD to nathan', async () => (await nathan.assetIssue('nathan', 'GOLD', 10))[0].trx.operation_results);
  await step('send alice 100 BTS', async () => (await nathan.transfer('alice', 'BTS', 100))[0].trx.operation_results);

  // The bot: alice logs in with her active key and follows her account (get_full_accounts with
  // subscribe, then her history on every change of her balances).
  const alice = new BitShares('alice', ALICE.active[0]);
  const aliceId = (await BitShares.accounts.alice).id;
  const seen = [];
  let onEvent = () => {};
  BitShares.subscribe('account', (events) => {
    seen.push(...events);
    onEvent();
  }, 'alice');
  const balances = await step("alice's balances", async () => (await alice.balances('BTS', 'GOLD')).map((b) => `${b.amount} ${b.asset.symbol}`));
  check(balances[0] === '10000000 BTS', `alice should hold 100 BTS, holds ${balances[0]}`);
  await step('cost of an order', async () => {
    const tx = alice.newTx();
    tx.add(await alice.buyOperation('GOLD', 'BTS', 0.5, 20));
    return tx.cost();
  });
  const order = await step('buy 0.5 GOLD at 20 BTS', async () => alice.buy('GOLD', 'BTS', 0.5, 20));
  check(order && /^1\.7\.\d+$/.test(order.id) && order.for_sale === 1_000_000, `buy: no order object for 10 BTS (${JSON.stringify(order)})`);
  const book = await step('order book', async () => BitShares.getOrderBook('GOLD', 'BTS', 10));
  check([...book.bids, ...book.asks].some((o) => o.id === order.id), 'the order is not in the book');
  const open = await step('get_account_limit_orders', async () => (await BitShares.db.get_account_limit_orders('alice', 'BTS', 'GOLD', 10)).map((o) => [o.id, o.for_sale]));
  check(open.some(([id]) => id === order.id), 'the order is not among get_account_limit_orders');
  const mine = await step("alice's orders (get_full_accounts)", async () => (await alice.orders()).map((o) => o.id));
  check(mine.includes(order.id), "the order is not among alice's orders");
  const limitOrders = await step('get_limit_orders', async () => (await BitShares.getLimitOrders('GOLD', 'BTS', 10)).map((o) => o.id));
  check(limitOrders.includes(order.id), 'the order is not among get_limit_orders');

  // nathan sells 0.2 GOLD asking 15 and is filled at alice's 20: her order is filled in part, and her
  // account event brings the fill.
  const filled = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no account event with the fill within 30 s')), 30_000);
    onEvent = () => {
      const fill = seen.find((h) => h.op[0] === 4 && h.op[1].order_id === order.id);
      if (fill) {
        clearTimeout(timer);
        resolve(fill);
      }
    };
    onEvent();
  });
  await step('nathan sells 0.2 GOLD at 15 BTS', async () => nathan.sell('GOLD', 'BTS', 0.2, 15));
  await step('the fill, as an account event', async () => (await filled).op);
  const rest = await step("alice's order after the fill", async () => alice.getOrder(order.id));
  check(rest && rest.for_sale === 600_000, `the order should sell 6 BTS more: ${JSON.stringify(rest)}`);
  const after = await step('order book after the fill', async () => BitShares.getOrderBook('GOLD', 'BTS', 10));
  check([...after.bids, ...after.asks].some((o) => o.id === order.id && o.base === '0.3000'), 'the book does not show the rest of the order');
  const history = await step("alice's history", async () => (await BitShares.history.get_account_history(aliceId, '1.11.0', 10, '1.11.0')).map((h) => h.op[0]));
  check(history[0] === 4, "no fill_order at the top of alice's history");
  const gold = await BitShares.assets.gold;
  const fills = await step('get_fill_order_history', async () => (await BitShares.history.get_fill_order_history('1.3.0', gold.id, 10)).map((f) => [f.op.order_id, f.op.pays, f.op.receives, f.op.is_maker]));
  check(fills.some(([id]) => id === order.id), 'no fill of the order in get_fill_order_history');
  const now = new Date();
  const buckets = await step('market history (60 s buckets)', async () => BitShares.tradeHistory('GOLD', 'BTS', new Date(now.getTime() - 3600_000), new Date(now.getTime() + 3600_000), 60));
  check(buckets.length === 1 && buckets[0].base_volume === 400_000, 'no market history bucket of 4 BTS');
  const trades = await step('get_trade_history', async () => BitShares.db.get_trade_history('BTS', 'GOLD', new Date(now.getTime() + 60_000).toISOString().slice(0, -5), new Date(now.getTime() - 86400_000).toISOString().slice(0, -5), 10));
  check(trades.length === 1 && trades[0].price === '20', 'no trade at 20');
  const ticker = await step('ticker', async () => BitShares.ticker('BTS', 'GOLD'));
  check(ticker.latest === '20', 'the ticker does not show the trade');
  await step('24 h volume', async () => BitShares.db.get_24_volume('BTS', 'GOLD'));

  // alice cancels the rest and gets 6 BTS back.
  await step('cancel the rest', async () => (await alice.cancelOrder(order.id))[0].trx.operation_results);
  const left = await step("alice's orders after the cancel", async () => alice.orders());
  check(left.length === 0, 'the order is still open');
  const end = await step("alice's balances at the end", async () => (await alice.balances('BTS', 'GOLD')).map((b) => `${b.amount} ${b.asset.symbol}`));
  check(end[1] === '2000 GOLD', 'alice should hold 0.2 GOLD');
  check(blocks > 0, 'no block event');
  console.log(`done: ${blocks} block events`);
}

// btsdex 0.7.11's disconnect() does not close the socket (btsdex-api compares the socket's state with
// "close", which it never is: it is "closed" or "open"), so the script ends the process itself.
main().then(
  () => process.exit(0),
  (err) => {
    console.error('FAILED:', err);
    process.exit(1);
  },
);
