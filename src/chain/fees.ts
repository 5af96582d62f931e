// Operation fees as BitShares Core computes them (libraries/protocol/fee_schedule_calc.cpp,
// fee_schedule_set_fee.cpp, asset.cpp and each operation's calculate_fee), for the operations this
// chain has: 0 transfer, 1 limit_order_create, 2 limit_order_cancel, 5 account_create,
// 6 account_update, 10 asset_create, 14 asset_issue, 35 custom.
//
//  core fee  = the operation's calculate_fee(fee parameters of its code in the schedule)
//              (data fees: bytes * price_per_kbyte / 1024, bytes being fc::raw::pack_size of the
//              memo or of the whole operation), then scaled: fee * scale / 10000 unless scale is 100%;
//  fee       = core fee * core_exchange_rate of the paying asset, rounded up (multiply_and_round_up);
//  set_fee   = puts that fee into the operation and recomputes, because the fee's own asset id changes
//              the packed size, until it no longer grows (at most MAX_FEE_STABILIZATION_ITERATION).
//
// Used by database_api.get_required_fees now, and by the transaction validator later. Failures throw
// RpcError shaped like the fc exception Core raises.

import { RpcError, assertError, fcError, FC } from '../errors.js';
import { i64, NULL_PUBLIC_KEY } from './fc-json.js';
import { OPERATION_NAMES, SUPPORTED_OPERATIONS, packOperation } from './serializer.js';

/** GRAPHENE_100_PERCENT */
const PERCENT_100 = 10000n;
/** GRAPHENE_MAX_SHARE_SUPPLY */
const MAX_SHARE_SUPPLY = 1_000_000_000_000_000n;
/** MAX_FEE_STABILIZATION_ITERATION (protocol/config.hpp) */
const MAX_FEE_STABILIZATION_ITERATION = 4;
/** GRAPHENE_BLOCKCHAIN_PRECISION */
const PRECISION = 100000n;

export type OperationJson = [number, Record<string, unknown>];

export interface AssetJson {
  amount: number | string;
  asset_id: string;
}

export interface PriceJson {
  base: AssetJson;
  quote: AssetJson;
}

/** `fee_schedule`: `{parameters: [[op code, {fee parameters}], …], scale}` as 2.0.0 holds it. */
export interface FeeScheduleJson {
  parameters: [number, Record<string, unknown>][];
  scale: number | string;
}
export type FeeSchedule = FeeScheduleJson;

/** Each fee_params_t's C++ defaults, used when the schedule lacks the operation (calc_fee_visitor's catch). */
const DEFAULT_PARAMS: Readonly<Record<number, Record<string, bigint>>> = {
  0: { fee: 20n * PRECISION, price_per_kbyte: 10n * PRECISION },
  1: { fee: 5n * PRECISION },
  2: { fee: 0n },
  5: { basic_fee: 5n * PRECISION, premium_fee: 2000n * PRECISION, price_per_kbyte: PRECISION },
  6: { fee: 20n * PRECISION, price_per_kbyte: PRECISION },
  10: { symbol3: 500000n * PRECISION, symbol4: 300000n * PRECISION, long_symbol: 5000n * PRECISION, price_per_kbyte: 10n },
  14: { fee: 20n * PRECISION, price_per_kbyte: PRECISION },
  35: { fee: PRECISION, price_per_kbyte: 10n },
};

/** The operations whose fees this module computes. */
export const FEE_OPERATIONS: ReadonlySet<number> = new Set(Object.keys(DEFAULT_PARAMS).map(Number));

const EMPTY_AUTHORITY = { weight_threshold: 0, account_auths: [], key_auths: [], address_auths: [] };
const ZERO_FEE = { amount: 0, asset_id: '1.3.0' };

/**
 * Each operation's fields with their C++ defaults. fc's from_variant keeps the default of every
 * field the JSON leaves out (reference §5.3), so `[0, {}]` is a valid transfer for fee purposes.
 */
const DEFAULT_OPS: Readonly<Record<number, Record<string, unknown>>> = {
  0: { fee: ZERO_FEE, from: '1.2.0', to: '1.2.0', amount: ZERO_FEE, extensions: [] },
  1: { fee: ZERO_FEE, seller: '1.2.0', amount_to_sell: ZERO_FEE, min_to_receive: ZERO_FEE, expiration: '2106-02-07T06:28:15', fill_or_kill: false, extensions: {} },
  2: { fee: ZERO_FEE, fee_paying_account: '1.2.0', order: '1.7.0', extensions: [] },
  5: {
    fee: ZERO_FEE,
    registrar: '1.2.0',
    referrer: '1.2.0',
    referrer_percent: 0,
    name: '',
    owner: EMPTY_AUTHORITY,
    active: EMPTY_AUTHORITY,
    options: { memo_key: NULL_PUBLIC_KEY, voting_account: '1.2.5', num_witness: 0, num_committee: 0, votes: [], extensions: [] },
    extensions: {},
  },
  6: { fee: ZERO_FEE, account: '1.2.0', extensions: {} },
  10: {
    fee: ZERO_FEE,
    issuer: '1.2.0',
    symbol: '',
    precision: 0,
    common_options: {
      max_supply: MAX_SHARE_SUPPLY.toString(),
      market_fee_percent: 0,
      max_market_fee: MAX_SHARE_SUPPLY.toString(),
      issuer_permissions: 0,
      flags: 0,
      core_exchange_rate: { base: ZERO_FEE, quote: { amount: 0, asset_id: '1.3.1' } },
      whitelist_authorities: [],
      blacklist_authorities: [],
      whitelist_markets: [],
      blacklist_markets: [],
      description: '',
      extensions: [],
    },
    is_prediction_market: false,
    extensions: [],
  },
  14: { fee: ZERO_FEE, issuer: '1.2.0', asset_to_issue: ZERO_FEE, issue_to_account: '1.2.0', extensions: [] },
  35: { fee: ZERO_FEE, payer: '1.2.0', required_auths: [], id: 0, data: '' },
};

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Fills missing struct fields with defaults, recursively into nested structs; arrays are taken as given. */
function withDefaults(given: Record<string, unknown>, defaults: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, d] of Object.entries(defaults)) {
    const g = given[k];
    out[k] = g === undefined ? d : isPlainObject(d) && isPlainObject(g) ? withDefaults(g, d) : g;
  }
  // Optional fields (memo, owner, active, new_options, bitasset_opts) have no default: kept only if given.
  for (const [k, g] of Object.entries(given)) if (!(k in defaults) && g !== undefined && g !== null) out[k] = g;
  return out;
}

/** An operation as Core would hold it after from_variant: `[code, fields with defaults]`. */
export function normaliseOperation(op: unknown): OperationJson {
  if (!Array.isArray(op) || op.length < 2) {
    // static_variant from_variant keeps the default alternative (a transfer) for short arrays.
    return [0, { ...DEFAULT_OPS[0] }];
  }
  const code = Number(op[0]);
  const fields = isPlainObject(op[1]) ? op[1] : {};
  const defaults = DEFAULT_OPS[code];
  if (!Number.isInteger(code) || defaults === undefined) throw unsupportedOperation(op[0]);
  return [code, withDefaults(fields, defaults)];
}

function unsupportedOperation(code: unknown): RpcError {
  return new RpcError(
    assertError('false: fees of operation ${code} cannot be computed by this node: ${operation} is not supported on this chain (supported: ${supported})', {
      code,
      operation: Number.isInteger(Number(code)) && OPERATION_NAMES[Number(code)] ? `${Number(code)} ${OPERATION_NAMES[Number(code)]}` : String(code),
      supported: [...SUPPORTED_OPERATIONS].map(([c, n]) => `${c} ${n}`).join(', '),
    }),
  );
}

const toBig = (v: unknown, what: string): bigint => {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return BigInt(v.trim());
  if (v === undefined || v === null) return 0n;
  throw new RpcError(fcError(FC.parse, "Couldn't parse int64_t in ${what}", { what }));
};

/** A serializer failure (a malformed field) becomes an fc parse error naming the field. */
function packed(op: OperationJson): Uint8Array {
  try {
    return packOperation(op);
  } catch (err) {
    throw new RpcError(fcError(FC.parse, '${error}', { error: (err as Error).message }));
  }
}

/** base_operation::calculate_data_fee: bytes * price_per_kbyte / 1024, at most the max supply. */
export function dataFee(bytes: number | bigint, pricePerKbyte: bigint): bigint {
  const result = (BigInt(bytes) * pricePerKbyte) / 1024n;
  if (result > MAX_SHARE_SUPPLY) throw new RpcError(assertError('result <= GRAPHENE_MAX_SHARE_SUPPLY: '));
  return result;
}

/** is_cheap_name (account.cpp): a name with a digit, '.', '-', '/' or no vowel costs the basic fee. */
export function isCheapName(name: string): boolean {
  let vowel = false;
  for (const c of name) {
    if (c >= '0' && c <= '9') return true;
    if (c === '.' || c === '-' || c === '/') return true;
    if ('aeiouy'.includes(c)) vowel = true;
  }
  return !vowel;
}

/** fc::raw::pack_size of an optional<memo_data> field: 1 flag byte, plus the memo when set. */
function optionalMemoSize(op: OperationJson): number {
  const fields = op[1];
  if (fields.memo === undefined || fields.memo === null) return 1;
  const { memo: _memo, ...without } = fields;
  return 1 + packed(op).length - packed([op[0], without]).length;
}

/** fc::raw::pack_size(*this) of the operation struct: the packed static_variant minus its tag. */
function structSize(op: OperationJson): number {
  return packed(op).length - 1;
}

function scheduleParams(schedule: FeeScheduleJson, code: number): Record<string, bigint> {
  const defaults = DEFAULT_PARAMS[code]!;
  const entry = schedule.parameters.find(([c]) => Number(c) === code);
  if (!entry) return defaults;
  const out: Record<string, bigint> = {};
  for (const k of Object.keys(defaults)) out[k] = entry[1][k] === undefined ? defaults[k]! : toBig(entry[1][k], `fee parameter ${k}`);
  return out;
}

/** Each operation's calculate_fee, in core asset units, before scaling. */
function baseFee(op: OperationJson, p: Record<string, bigint>): bigint {
  const [code, f] = op;
  switch (code) {
    case 0: // transfer.cpp: fee, plus the memo's data fee when there is a memo
      return f.memo === undefined || f.memo === null ? p.fee! : p.fee! + dataFee(optionalMemoSize(op), p.price_per_kbyte!);
    case 1: // market.hpp: limit_order_create and limit_order_cancel charge their flat fee
    case 2:
      return p.fee!;
    case 5: // account.cpp: basic or premium fee by name, plus the whole operation's data fee
      return (isCheapName(String(f.name ?? '')) ? p.basic_fee! : p.premium_fee!) + dataFee(structSize(op), p.price_per_kbyte!);
    case 6: // account.cpp: fee, plus the whole operation's data fee when the options change
      return p.fee! + (f.new_options === undefined || f.new_options === null ? 0n : dataFee(structSize(op), p.price_per_kbyte!));
    case 10: {
      // asset_ops.cpp: by symbol length (no sub-asset fee: this schedule has no account_transfer and
      // ticket_create parameters), plus the whole operation's data fee
      const length = [...String(f.symbol ?? '')].length;
      const byLength = length === 3 ? p.symbol3! : length === 4 ? p.symbol4! : p.long_symbol!;
      return byLength + dataFee(structSize(op), p.price_per_kbyte!);
    }
    case 14: // asset_ops.cpp: fee, plus the data fee of the optional memo (its flag byte included)
      return p.fee! + dataFee(optionalMemoSize(op), p.price_per_kbyte!);
    case 35: // custom.cpp: fee, plus the whole operation's data fee (its data is most of it)
      return p.fee! + dataFee(structSize(op), p.price_per_kbyte!);
    default:
      throw unsupportedOperation(code);
  }
}

/** fee_schedule::calculate_fee(op): the core-asset fee, scaled. */
export function calculateCoreFee(op: OperationJson, schedule: FeeScheduleJson): bigint {
  let fee = baseFee(op, scheduleParams(schedule, op[0]));
  const scale = toBig(schedule.scale, 'scale');
  if (scale !== PERCENT_100) {
    fee = (fee * scale) / PERCENT_100;
    if (fee > MAX_SHARE_SUPPLY) {
      throw new RpcError(assertError('scaled <= GRAPHENE_MAX_SHARE_SUPPLY: Required fee after scaling would exceed maximum possible supply'));
    }
  }
  return fee;
}

/** asset::multiply_and_round_up(price) for a core-asset amount (asset.cpp). */
export function convertCoreFee(coreFee: bigint, rate: PriceJson): { amount: bigint; asset_id: string } {
  const base = { amount: toBig(rate.base?.amount, 'core_exchange_rate'), asset_id: String(rate.base?.asset_id) };
  const quote = { amount: toBig(rate.quote?.amount, 'core_exchange_rate'), asset_id: String(rate.quote?.asset_id) };
  let amount: bigint;
  let assetId: string;
  if (base.asset_id === '1.3.0') {
    if (base.amount <= 0n) throw new RpcError(assertError('b.base.amount.value > 0: '));
    amount = (coreFee * quote.amount + base.amount - 1n) / base.amount;
    assetId = quote.asset_id;
  } else if (quote.asset_id === '1.3.0') {
    if (quote.amount <= 0n) throw new RpcError(assertError('b.quote.amount.value > 0: '));
    amount = (coreFee * base.amount + quote.amount - 1n) / quote.amount;
    assetId = base.asset_id;
  } else {
    throw new RpcError(assertError('invalid asset::multiply_and_round_up(price)', { asset: { amount: i64(coreFee), asset_id: '1.3.0' }, price: rate }));
  }
  if (amount > MAX_SHARE_SUPPLY) throw new RpcError(assertError('result <= GRAPHENE_MAX_SHARE_SUPPLY: '));
  return { amount, asset_id: assetId };
}

/**
 * fee_schedule::set_fee: the fee in the paying asset, with the fee written into the operation and
 * recomputed until it stops growing. `op` must be normalised (see normaliseOperation); it is changed.
 */
export function setFee(op: OperationJson, schedule: FeeScheduleJson, rate: PriceJson): { amount: bigint; asset_id: string } {
  let f = convertCoreFee(calculateCoreFee(op, schedule), rate);
  for (let i = 0; i < MAX_FEE_STABILIZATION_ITERATION; i++) {
    op[1].fee = { amount: i64(f.amount), asset_id: f.asset_id };
    const f2 = convertCoreFee(calculateCoreFee(op, schedule), rate);
    // asset::operator>= asserts equal asset ids; both come from the same rate, so they are.
    if (f.amount >= f2.amount) break;
    f = f2;
  }
  return f;
}

/** The core asset's own rate, 1:1. */
export const CORE_RATE: PriceJson = { base: { amount: 1, asset_id: '1.3.0' }, quote: { amount: 1, asset_id: '1.3.0' } };

/** The fee asset of one operation (any JSON the client sent) in the asset whose core_exchange_rate is given. */
export function requiredFeeAsset(op: unknown, schedule: FeeScheduleJson, rate: PriceJson = CORE_RATE): { amount: number | string; asset_id: string } {
  const f = setFee(normaliseOperation(op), schedule, rate);
  return { amount: i64(f.amount), asset_id: f.asset_id };
}

/** The fee amount of one operation, in fc's number format (in the core asset unless a rate is given). */
export const requiredFee = (op: unknown, schedule: FeeScheduleJson, rate: PriceJson = CORE_RATE): number | string => requiredFeeAsset(op, schedule, rate).amount;
