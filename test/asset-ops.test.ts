// The asset operations of src/chain/evaluators/asset-ops.ts over the wire, against a real node producing blocks
// on demand: each accepted (its objects, balances and history as Core shows them, and seen by reads
// before the next block), each refused with Core's assertion for its main checks, and what the flags
// they set mean to transfers, issues and orders. Numbers and texts from BitShares Core's
// asset_evaluator.cpp, transfer_evaluator.cpp and protocol/asset_ops.cpp.
import test, { type ExecutionContext } from 'ava';
import { WsClient } from './helpers/clients.js';
import { DEV_WIF, op } from './helpers/chain.js';
import { signedTx } from './helpers/tx.js';
import { generateBlocks, startDevnet } from './helpers/devnet.js';
import type { OperationJson } from '../src/chain/protocol/types.js';
import { idInstance } from '../src/chain/fc/object-id.js';

const NATHAN = '1.2.6';
const BTS = '1.3.0';
const ZERO = { amount: 0, asset_id: BTS };
/** charge_market_fee | white_list | override_authority | transfer_restricted | disable_confidential: python-bitshares' UIA default */
const UIA_PERMISSIONS = 79;

type Obj = Record<string, any>;

/** A node on the bundled genesis with alice and bob (nathan's key), funded, and the asset GOLD of nathan, with python-bitshares' permissions. */
async function devnet(t: ExecutionContext) {
  const node = await startDevnet(t);
  const ws = await WsClient.connect(node.wsUrl);
  ws.ws.on('error', () => {});
  t.teardown(() => ws.ws.close());
  let id = 0;
  const raw = async (set: string, method: string, params: unknown[]): Promise<Obj> => ws.call({ id: ++id, method: 'call', params: [set, method, params] });
  const call = async (set: string, method: string, params: unknown[]): Promise<any> => {
    const r = await raw(set, method, params);
    if (r.error) throw new Error(`${method}: ${r.error.message}`);
    return r.result;
  };
  const generate = async (): Promise<void> => {
    const r = await generateBlocks(node.httpUrl);
    if (r.error) throw new Error(`debug_generate_blocks: ${r.error.message}`);
  };
  const broadcast = async (...ops: OperationJson[]): Promise<void> => {
    await call('network_broadcast', 'broadcast_transaction', [await signedTx(node.httpUrl, ops, [DEV_WIF])]);
  };
  /** The broadcast's refusal: the assertion text after fc's "Assert Exception: ". */
  const refused = async (...ops: OperationJson[]): Promise<string> => {
    const r = await raw('network_broadcast', 'broadcast_transaction', [await signedTx(node.httpUrl, ops, [DEV_WIF])]);
    if (!r.error) throw new Error('the broadcast was accepted');
    return String(r.error.message).replace(/^Execution error: Assert Exception: /, '');
  };
  const get = async (objectId: string): Promise<Obj> => (await call('database', 'get_objects', [[objectId]]))[0];
  const balance = async (account: string, asset: string): Promise<bigint> => BigInt((await call('database', 'get_account_balances', [account, [asset]]))[0].amount);
  /** The account's newest operation in history, read through history_api. */
  const lastOp = async (account: string): Promise<Obj> => (await call('history', 'get_account_history', [account, '1.11.0', 1, '1.11.0']))[0];

  await generate();
  await broadcast(op.accountCreate('alice'), op.accountCreate('bob'));
  const [alice, bob] = (await call('database', 'lookup_account_names', [['alice', 'bob']])).map((a: Obj) => a.id as string);
  const create: [number, Obj] = op.assetCreate('GOLD');
  create[1].common_options.issuer_permissions = UIA_PERMISSIONS;
  await broadcast(create, op.transfer(NATHAN, alice!, 100_000_000), op.transfer(NATHAN, bob!, 100_000_000));
  const gold = (await call('database', 'lookup_asset_symbols', [['GOLD']]))[0].id as string;
  await generate();
  return { node, call, raw, generate, broadcast, refused, get, balance, lastOp, alice: alice!, bob: bob!, gold };
}

type Net = Awaited<ReturnType<typeof devnet>>;

/** asset_update (11) of `asset` by `issuer` with the asset's current options changed by `change`. */
async function assetUpdateOp(net: Net, asset: string, change: (options: Obj) => void, issuer = NATHAN, extensions: Obj = {}): Promise<OperationJson> {
  const options = structuredClone((await net.get(asset)).options);
  change(options);
  return [11, { fee: ZERO, issuer, asset_to_update: asset, new_options: options, extensions }];
}

const issue = (asset: string, to: string, amount: number | string): OperationJson => op.assetIssue(asset, to, amount);
const transfer = (from: string, to: string, amount: number | string, asset: string): OperationJson => op.transfer(from, to, amount, asset);

test('asset_create names the new asset in its core exchange rate, as Core replaces the placeholder 1.3.1', async (t) => {
  const net = await devnet(t);
  await net.broadcast(op.assetCreate('SILVER'));
  const silver = (await net.call('database', 'lookup_asset_symbols', [['SILVER']]))[0];
  t.not(silver.id, '1.3.1');
  t.deepEqual(silver.options.core_exchange_rate, { base: { amount: 1, asset_id: BTS }, quote: { amount: 1, asset_id: silver.id } });
  const wrong: [number, Obj] = op.assetCreate('COPPER');
  wrong[1].common_options.core_exchange_rate.quote.asset_id = '1.3.7';
  t.is(await net.refused(wrong), 'dummy.asset_id == asset_id_type(1): ');
  const listed: [number, Obj] = op.assetCreate('COPPER');
  listed[1].common_options.whitelist_authorities = [net.alice];
  t.is(await net.refused(listed), '0 != (flags & white_list): ');
});

test('asset_update: new flags, lists and market fee are read back before the block, and the block puts the update in the issuer\'s history', async (t) => {
  const net = await devnet(t);
  // test_halt: white_list and transfer_restricted, only null-account whitelists, only its own market
  const halt = await assetUpdateOp(net, net.gold, (o) => {
    o.flags = 0x02 | 0x08;
    o.whitelist_authorities = ['1.2.3'];
    o.whitelist_markets = [net.gold];
  });
  await net.broadcast(halt);
  const pending = await net.get(net.gold);
  t.is(pending.options.flags, 0x0a, 'the pending state shows the update before any block');
  t.deepEqual(pending.options.whitelist_authorities, ['1.2.3']);
  t.deepEqual(pending.options.whitelist_markets, [net.gold]);
  // test_set_market_fee, then test_release with both kinds of lists (sets come back sorted)
  await net.broadcast(
    await assetUpdateOp(net, net.gold, (o) => {
      o.flags = 0x01 | 0x02;
      o.market_fee_percent = 100;
      o.max_market_fee = 10_000_000;
      o.whitelist_authorities = [net.bob, net.alice];
      o.blacklist_authorities = ['1.2.3'];
      o.whitelist_markets = [];
      o.blacklist_markets = [BTS];
    }),
  );
  await net.generate();
  const updated = await net.get(net.gold);
  t.deepEqual(updated.options, {
    max_supply: '1000000000000000',
    market_fee_percent: 100,
    max_market_fee: 10_000_000,
    issuer_permissions: UIA_PERMISSIONS,
    flags: 3,
    core_exchange_rate: { base: { amount: 1, asset_id: BTS }, quote: { amount: 1, asset_id: net.gold } },
    whitelist_authorities: [net.alice, net.bob],
    blacklist_authorities: ['1.2.3'],
    whitelist_markets: [],
    blacklist_markets: [BTS],
    description: '',
    extensions: {},
  });
  const last = await net.lastOp(NATHAN);
  t.is(last.op[0], 11);
  t.deepEqual(last.result, [0, {}]);
  t.is(last.op[1].asset_to_update, net.gold);
  t.true(Number(last.op[1].fee.amount) > 0, 'asset_update pays its fee');
});

test('asset_update is refused as Core refuses it: flag changes beyond the permissions, a revoked permission back while there is supply, another issuer, unknown authorities, lists without white_list', async (t) => {
  const net = await devnet(t);
  // SILVER has no permissions: no flag may change.
  await net.broadcast(op.assetCreate('SILVER'));
  const silver = (await net.call('database', 'lookup_asset_symbols', [['SILVER']]))[0].id;
  t.is(
    await net.refused(await assetUpdateOp(net, silver, (o) => (o.flags = 0x01))),
    '0 == ( (o.new_options.flags ^ a.options.flags) & check_bits & (uint16_t)(~enabled_issuer_permissions_mask) ): Flag change is forbidden by issuer permissions',
  );
  t.is(
    await net.refused(await assetUpdateOp(net, net.gold, (o) => (o.max_supply = 5), net.alice)),
    `o.issuer == a.issuer: Incorrect issuer for asset! (${net.alice} != ${NATHAN})`,
  );
  t.is(await net.refused(await assetUpdateOp(net, net.gold, (o) => (o.whitelist_authorities = [net.alice]))), '0 != (flags & white_list): ');
  t.is(
    await net.refused(
      await assetUpdateOp(net, net.gold, (o) => {
        o.flags = 0x02;
        o.blacklist_authorities = ['1.2.999'];
      }),
    ),
    'maybe_found != nullptr: Unable to find Object 1.2.999',
  );
  t.is(await net.refused(await assetUpdateOp(net, net.gold, (o) => (o.flags = 0x10))), '0 == (options.flags & disable_force_settle) && 0 == (options.flags & global_settle): ');
  t.is(await net.refused(await assetUpdateOp(net, net.gold, (o) => (o.issuer_permissions = UIA_PERMISSIONS | 0x80))), '0 == ( o.new_options.issuer_permissions & NON_UIA_ONLY_ISSUER_PERMISSION_MASK ): Unable to set non-UIA issuer permission bits on UIA');
  t.is(await net.refused(await assetUpdateOp(net, net.gold, (o) => (o.core_exchange_rate.quote.asset_id = silver))), 'invalid asset * price');
  t.is(await net.refused(await assetUpdateOp(net, net.gold, (o) => (o.market_fee_percent = 10001))), 'market_fee_percent <= GRAPHENE_100_PERCENT: ');
  t.is(await net.refused(await assetUpdateOp(net, net.gold, () => {}, NATHAN, { new_precision: 4 })), '*o.extensions.value.new_precision != a.precision: Specified a new precision but it does not change');

  // Without supply a permission given up may come back; with supply, not.
  await net.broadcast(await assetUpdateOp(net, net.gold, (o) => (o.issuer_permissions = 0x01)));
  await net.broadcast(await assetUpdateOp(net, net.gold, (o) => (o.issuer_permissions = UIA_PERMISSIONS)));
  // (a block, so that the same update again is a new transaction)
  await net.generate();
  await net.broadcast(await assetUpdateOp(net, net.gold, (o) => (o.issuer_permissions = 0x01)), issue(net.gold, net.alice, 1000));
  t.is(
    await net.refused(await assetUpdateOp(net, net.gold, (o) => (o.issuer_permissions = UIA_PERMISSIONS))),
    '0 == ( ( o.new_options.get_enabled_issuer_permissions_mask() & (uint16_t)(~enabled_issuer_permissions_mask) ) & UIA_ASSET_ISSUER_PERMISSION_MASK ): Cannot reinstate previously revoked issuer permissions on a UIA if current supply is non-zero, unless to unset non-UIA issuer permission bits.',
  );
  t.is(await net.refused(await assetUpdateOp(net, net.gold, (o) => (o.max_supply = 999))), 'dyn_data.current_supply <= o.new_options.max_supply: Max supply should not be smaller than current supply');
  // lock_max_supply, a flag the issuer may set while it keeps the permission (a "disable" bit: the
  // permission is kept while the bit is clear), stops max_supply changes
  await net.broadcast(await assetUpdateOp(net, net.gold, (o) => (o.flags = 0x200)));
  t.is(await net.refused(await assetUpdateOp(net, net.gold, (o) => (o.max_supply = 1_000_000))), 'a.can_update_max_supply() || a.options.max_supply == o.new_options.max_supply: Can not update max supply');
});

test('white_list and transfer_restricted bind transfers and issues as Core binds them; blacklists and whitelists are read from the accounts', async (t) => {
  const net = await devnet(t);
  await net.broadcast(issue(net.gold, net.alice, 5000), issue(net.gold, NATHAN, 5000));
  // transfer_restricted: the issuer must be one side of every transfer
  await net.broadcast(await assetUpdateOp(net, net.gold, (o) => (o.flags = 0x08)));
  t.is(await net.refused(transfer(net.alice, net.bob, 10, net.gold)), `Asset ${net.gold} has transfer_restricted flag enabled`);
  await net.broadcast(transfer(net.alice, NATHAN, 10, net.gold), transfer(NATHAN, net.bob, 10, net.gold));
  t.is(await net.balance(net.bob, net.gold), 10n);

  // white_list with a whitelist authority nobody is whitelisted by (test_halt): nobody may hold it,
  // the issuer included, and no one may be issued it.
  await net.broadcast(
    await assetUpdateOp(net, net.gold, (o) => {
      o.flags = 0x02;
      o.whitelist_authorities = ['1.2.3'];
    }),
  );
  t.is(await net.refused(transfer(net.alice, net.bob, 10, net.gold)), `'from' account ${net.alice} is not whitelisted for asset ${net.gold}`);
  t.is(await net.refused(transfer(NATHAN, net.bob, 10, net.gold)), `'from' account ${NATHAN} is not whitelisted for asset ${net.gold}`);
  t.is(await net.refused(issue(net.gold, net.bob, 10)), 'is_authorized_asset( d, *to_account, a ): ');
  t.is(await net.refused(op.limitOrderCreate(net.alice, [10, net.gold], [10, BTS])), 'is_authorized_asset( d, *_seller, *_sell_asset ): The account is not allowed to transact the selling asset');

  // white_list with only a blacklist authority that blacklists nobody: everyone may.
  await net.broadcast(
    await assetUpdateOp(net, net.gold, (o) => {
      o.whitelist_authorities = [];
      o.blacklist_authorities = ['1.2.3'];
    }),
  );
  await net.broadcast(transfer(net.alice, net.bob, 10, net.gold));
  t.is(await net.balance(net.bob, net.gold), 20n);

  // disable_new_supply (a "disable" bit of the permissions, set as a flag)
  const silver: [number, Obj] = op.assetCreate('SILVER');
  silver[1].common_options.issuer_permissions = 0;
  silver[1].common_options.flags = 0x400;
  await net.broadcast(silver);
  const silverId = (await net.call('database', 'lookup_asset_symbols', [['SILVER']]))[0].id;
  t.is(await net.refused(issue(silverId, net.alice, 1)), 'a.can_create_new_supply(): Can not create new supply');
});

test('asset_update_issuer hands the asset over: both accounts have it in their history, the old issuer may no longer update it', async (t) => {
  const net = await devnet(t);
  const handOver = (to: string, from = NATHAN): OperationJson => [48, { fee: ZERO, issuer: from, asset_to_update: net.gold, new_issuer: to, extensions: [] }];
  t.is(await net.refused(handOver(NATHAN)), 'issuer != new_issuer: ');
  t.is(await net.refused(handOver('1.2.999')), 'd.find(new_issuer): New issuer account does not exist');
  t.is(await net.refused(handOver(NATHAN, net.alice)), `o.issuer == a.issuer: Incorrect issuer for asset! (${net.alice} != ${NATHAN})`);
  await net.broadcast(handOver(net.alice));
  t.is((await net.get(net.gold)).issuer, net.alice, 'seen before the block');
  t.deepEqual((await net.call('database', 'get_assets_by_issuer', ['alice', '1.3.0', 10])).map((a: Obj) => a.id), [net.gold]);
  t.is(await net.refused(await assetUpdateOp(net, net.gold, (o) => (o.description = 'mine'))), `o.issuer == a.issuer: Incorrect issuer for asset! (${NATHAN} != ${net.alice})`);
  await net.generate();
  for (const account of [NATHAN, net.alice]) {
    const last = await net.lastOp(account);
    t.is(last.op[0], 48);
    t.is(last.op[1].new_issuer, net.alice);
  }
  await net.broadcast(await assetUpdateOp(net, net.gold, (o) => (o.description = 'mine'), net.alice));
  t.is((await net.get(net.gold)).options.description, 'mine');
});

test('asset_reserve takes the amount out of the payer\'s balance and the supply, of a user-issued asset or the core asset', async (t) => {
  const net = await devnet(t);
  const reserve = (payer: string, amount: number | string, asset: string): OperationJson => [15, { fee: ZERO, payer, amount_to_reserve: { amount, asset_id: asset }, extensions: [] }];
  await net.broadcast(issue(net.gold, net.alice, 1000));
  await net.broadcast(reserve(net.alice, 300, net.gold));
  t.is(await net.balance(net.alice, net.gold), 700n, 'seen before the block');
  t.is((await net.get(`2.3.${idInstance(net.gold)}`)).current_supply, 700);
  t.is(await net.refused(reserve(net.alice, 701, net.gold)), 'asset_dyn_data->current_supply >= o.amount_to_reserve.amount: Can not reserve an amount that is more than the current supply');
  t.is(await net.refused(reserve(net.alice, 0, net.gold)), 'amount_to_reserve.amount.value > 0: ');
  await net.broadcast(issue(net.gold, net.bob, 100));
  t.regex(await net.refused(reserve(net.alice, 701, net.gold)), /^Insufficient Balance: alice's balance of 700 of asset 1\.3\.\d+ is less than required 701$/);
  // test_reserve: 10 TEST of the core asset
  const coreSupply = BigInt((await net.get('2.3.0')).current_supply);
  await net.broadcast(reserve(NATHAN, 1_000_000, BTS));
  t.is(BigInt((await net.get('2.3.0')).current_supply), coreSupply - 1_000_000n);
  await net.generate();
  const last = await net.lastOp(NATHAN);
  t.is(last.op[0], 15);
  t.deepEqual(last.op[1].amount_to_reserve, { amount: 1_000_000, asset_id: BTS });
  t.is((await net.lastOp(net.alice)).op[0], 15);
});

test('asset_fund_fee_pool and asset_claim_pool move core into and out of the asset\'s fee pool; only the issuer claims, never more than the pool', async (t) => {
  const net = await devnet(t);
  const dynId = `2.3.${idInstance(net.gold)}`;
  const fund = (from: string, amount: number): OperationJson => [16, { fee: ZERO, from_account: from, asset_id: net.gold, amount, extensions: [] }];
  const claim = (issuer: string, amount: number, asset = net.gold): OperationJson => [47, { fee: ZERO, issuer, asset_id: asset, amount_to_claim: { amount, asset_id: BTS }, extensions: [] }];
  const before = await net.balance(net.alice, BTS);
  t.is(await net.refused(fund(net.alice, 0)), 'amount > 0: ');
  await net.broadcast(fund(net.alice, 5_000_000));
  t.is((await net.get(dynId)).fee_pool, 5_000_000, 'seen before the block');
  const fundFee = before - 5_000_000n - (await net.balance(net.alice, BTS));
  t.true(fundFee > 0n, 'the funder paid the amount and the fee');

  t.is(await net.refused(claim(net.alice, 1)), 'o.asset_id(db()).issuer == o.issuer: Asset fee pool may only be claimed by the issuer');
  t.is(await net.refused(claim(NATHAN, 5_000_001)), 'o.amount_to_claim.amount <= addo.fee_pool: Attempt to claim more fees than is available');
  t.is(await net.refused(claim(NATHAN, 1, BTS)), 'fee.asset_id != asset_id: ');
  const nathan = await net.balance(NATHAN, BTS);
  await net.broadcast(claim(NATHAN, 2_000_000));
  t.is((await net.get(dynId)).fee_pool, 3_000_000);
  const claimFee = nathan + 2_000_000n - (await net.balance(NATHAN, BTS));
  t.true(claimFee > 0n);
  await net.generate();
  t.is((await net.lastOp(net.alice)).op[0], 16);
  t.is((await net.lastOp(NATHAN)).op[0], 47);
  t.is((await net.get(dynId)).fee_pool, 3_000_000);
});

test('market fees of an asset with charge_market_fee accumulate at each fill, and asset_claim_fees pays them to the issuer', async (t) => {
  const net = await devnet(t);
  const dynId = `2.3.${idInstance(net.gold)}`;
  await net.broadcast(issue(net.gold, net.alice, 100_000));
  // 1% of what a buyer receives in GOLD, at most 300
  await net.broadcast(
    await assetUpdateOp(net, net.gold, (o) => {
      o.flags = 0x01;
      o.market_fee_percent = 100;
      o.max_market_fee = 300;
    }),
  );
  // alice sells 10,000 GOLD for 20,000 BTS; bob buys all of it: he receives 10,000 GOLD less 1% (100)
  await net.broadcast(op.limitOrderCreate(net.alice, [10_000, net.gold], [20_000, BTS]));
  await net.broadcast(op.limitOrderCreate(net.bob, [20_000, BTS], [10_000, net.gold]));
  t.is(await net.balance(net.bob, net.gold), 9_900n);
  t.is((await net.get(dynId)).accumulated_fees, 100, 'the fee is the asset\'s, before the block');
  // a second fill hits the cap
  await net.broadcast(op.limitOrderCreate(net.alice, [50_000, net.gold], [100_000, BTS]));
  await net.broadcast(op.limitOrderCreate(net.bob, [100_000, BTS], [50_000, net.gold]));
  t.is((await net.get(dynId)).accumulated_fees, 400);

  const claim = (issuer: string, amount: number, extensions: Obj = {}): OperationJson => [43, { fee: ZERO, issuer, amount_to_claim: { amount, asset_id: net.gold }, extensions }];
  t.is(await net.refused(claim(net.alice, 1)), 'container_asset->issuer == o.issuer: Asset fees may only be claimed by the issuer');
  t.is(await net.refused(claim(NATHAN, 0)), 'amount_to_claim.amount > 0: ');
  t.is(await net.refused(claim(NATHAN, 1, { claim_from_asset_id: BTS })), `container_asset->issuer == o.issuer: Asset fees may only be claimed by the issuer`);
  const dyn = await net.get(dynId);
  t.is(
    await net.refused(claim(NATHAN, 401)),
    `o.amount_to_claim.amount <= container_ddo->accumulated_fees: Attempt to claim more fees than have accumulated within asset GOLD (${net.gold}). Asset DDO: ${JSON.stringify(dyn)}. Fee claim: {"amount":401,"asset_id":"${net.gold}"}.`,
  );
  await net.broadcast(claim(NATHAN, 150));
  t.is((await net.get(dynId)).accumulated_fees, 250);
  t.is(await net.balance(NATHAN, net.gold), 150n);
  await net.generate();
  const last = await net.lastOp(NATHAN);
  t.is(last.op[0], 43);
  t.deepEqual(last.op[1].amount_to_claim, { amount: 150, asset_id: net.gold });
});

test('override_transfer: the issuer of an asset with override_authority takes it from any holder; history of all three', async (t) => {
  const net = await devnet(t);
  const seize = (from: string, to: string, amount: number, issuer = NATHAN): OperationJson => [38, { fee: ZERO, issuer, from, to, amount: { amount, asset_id: net.gold }, extensions: [] }];
  await net.broadcast(issue(net.gold, net.alice, 1000));
  t.is(await net.refused(seize(net.alice, net.bob, 100)), `override_transfer not permitted for asset ${net.gold}`);
  // test_seize: enableflag override_authority, then seize
  await net.broadcast(await assetUpdateOp(net, net.gold, (o) => (o.flags = 0x04)));
  t.is(await net.refused(seize(net.alice, net.alice, 100)), 'from != to: ');
  t.is(await net.refused(seize(NATHAN, net.bob, 100)), 'issuer != from: ');
  t.is(await net.refused(seize(net.alice, net.bob, 100, net.bob)), 'asset_type.issuer == op.issuer: ');
  t.is(await net.refused(seize(net.alice, net.bob, 1001)), 'd.get_balance( from_account, asset_type ).amount >= op.amount.amount: ');
  await net.broadcast(seize(net.alice, net.bob, 1000));
  t.is(await net.balance(net.alice, net.gold), 0n, 'seen before the block');
  t.is(await net.balance(net.bob, net.gold), 1000n);
  // The issuer may take back from an account it no longer lets hold the asset (hardfork core-2295),
  // but not give to one.
  await net.broadcast(
    await assetUpdateOp(net, net.gold, (o) => {
      o.flags = 0x04 | 0x02;
      o.whitelist_authorities = ['1.2.3'];
    }),
  );
  t.is(await net.refused(seize(net.bob, net.alice, 10)), 'is_authorized_asset( d, to_account, asset_type ): The to_account is not allowed to transact the asset');
  await net.broadcast(seize(net.bob, '1.2.0', 10));
  await net.generate();
  for (const account of [NATHAN, net.bob]) t.is((await net.lastOp(account)).op[0], 38);
  const aliceLast = await net.lastOp(net.alice);
  t.is(aliceLast.op[0], 38);
  t.deepEqual(aliceLast.op[1].amount, { amount: 1000, asset_id: net.gold });
});
