// Operation fees as BitShares Core computes them (libraries/protocol/fee_schedule_calc.cpp,
// fee_schedule_set_fee.cpp, fee_schedule.hpp's fee_helper, asset.cpp and each operation's
// calculate_fee), for every operation Core defines.
//
//  core fee  = the operation's calculate_fee(fee parameters of its code in the schedule)
//              (data fees: bytes * price_per_kbyte / 1024, bytes being fc::raw::pack_size of the
//              memo or of the whole operation), then scaled: fee * scale / 10000 unless scale is 100%;
//  fee       = core fee * core_exchange_rate of the paying asset, rounded up (multiply_and_round_up);
//  set_fee   = puts that fee into the operation and recomputes, because the fee's own asset id changes
//              the packed size, until it no longer grows (at most MAX_FEE_STABILIZATION_ITERATION).
//
// Operations are read as Core's from_variant reads them (serializer.ts canonicalOperation: missing
// members keep their defaults), so `[22, {}]` is priced as the default proposal_create.
//
// Used by database_api.get_required_fees and the transaction validator. Failures throw RpcError
// shaped like the fc exception Core raises.

import { RpcError, assertError, fcError, FC } from '../../errors.js';
import { i64, u64 } from '../fc/fc-json.js';
import { canonicalOperation, packOperation, packSize } from './serializer.js';
import { FEE_PARAMETERS, defaultFeeParameters } from './fee-parameters.js';

/** GRAPHENE_100_PERCENT */
const PERCENT_100 = 10000n;
/** GRAPHENE_MAX_SHARE_SUPPLY */
const MAX_SHARE_SUPPLY = 1_000_000_000_000_000n;
/** MAX_FEE_STABILIZATION_ITERATION (protocol/config.hpp) */
const MAX_FEE_STABILIZATION_ITERATION = 4;
/** GET_REQUIRED_FEES_MAX_RECURSION (app/database_api_impl.hxx): how deep proposals may nest */
export const GET_REQUIRED_FEES_MAX_RECURSION = 4;
/** SECONDS_PER_DAY (htlc.cpp) */
const SECONDS_PER_DAY = 86400n;

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

/** fee_schedule::get_default() (fee_schedule.cpp): every operation with its default fee parameters. */
export function defaultFeeSchedule(): FeeScheduleJson {
  return {
    parameters: FEE_PARAMETERS.map((p, code) => [code, Object.fromEntries(p.fields.map(([f, kind, d]) => [f, kind === 'int64' ? i64(d) : u64(d)]))] as [number, Record<string, unknown>]),
    scale: Number(PERCENT_100),
  };
}

/**
 * An operation as Core holds it after from_variant: `[code, every member]`. A member that cannot be
 * read is an fc parse error naming it.
 */
export function normaliseOperation(op: unknown): OperationJson {
  return guarded(() => canonicalOperation(op));
}

const toBig = (v: unknown, what: string): bigint => {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return BigInt(v.trim());
  if (v === undefined || v === null) return 0n;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  throw new RpcError(fcError(FC.parse, "Couldn't parse int64_t in ${what}", { what }));
};

/** A serializer failure (a malformed field) becomes an fc parse error naming the field. */
function guarded<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof RpcError) throw err;
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

/** fc::raw::pack_size(*this) of the operation struct: the packed static_variant minus its one-byte tag (codes are below 128). */
const structSize = (op: OperationJson): number => guarded(() => packOperation(op).length - 1);

type Params = Record<string, bigint>;

/** The schedule's entry for an operation, its members defaulted as from_variant leaves them; undefined if it has none. */
function scheduleEntry(schedule: FeeScheduleJson, code: number): Params | undefined {
  // fee_parameters is a flat_set ordered by `which`: the first entry of a code is the one kept.
  const entry = (Array.isArray(schedule?.parameters) ? schedule.parameters : []).find((e) => Array.isArray(e) && Number(e[0]) === code);
  if (!entry) return undefined;
  const given = typeof entry[1] === 'object' && entry[1] !== null ? entry[1] : {};
  const out: Params = {};
  for (const [f, , d] of FEE_PARAMETERS[code]!.fields) out[f] = given[f] === undefined ? d : toBig(given[f], `fee parameter ${f}`);
  return out;
}

/**
 * The parameters an operation is priced with (fee_schedule.hpp fee_helper, calc_fee_visitor): its own
 * entry, or where the schedule has none, the defaults, except that bid_collateral, asset_update_issuer
 * and asset_claim_pool borrow the fee of call_order_update, asset_update and asset_fund_fee_pool (they
 * were priced so before their own entries existed), and ticket_create and ticket_update always use
 * their defaults, whatever the schedule says.
 */
function feeParams(schedule: FeeScheduleJson, code: number): Params {
  if (code === 57 || code === 58) return defaultFeeParameters(code);
  const own = scheduleEntry(schedule, code);
  if (own) return own;
  const borrowed = { 45: 3, 48: 11, 47: 16 }[code as 45 | 48 | 47];
  const lender = borrowed === undefined ? undefined : scheduleEntry(schedule, borrowed);
  if (lender) return { fee: lender.fee! };
  return defaultFeeParameters(code);
}

const bool = (v: unknown): boolean => v === true;
const hexLength = (v: unknown): number => (typeof v === 'string' ? v.length / 2 : 0);
/** (seconds + SECONDS_PER_DAY - 1) / SECONDS_PER_DAY as htlc.cpp computes it, in uint32 arithmetic. */
const htlcDays = (seconds: unknown): bigint => ((toBig(seconds, 'seconds') + SECONDS_PER_DAY - 1n) & 0xffffffffn) / SECONDS_PER_DAY;

/** Each operation's calculate_fee, in core asset units, before scaling. `op` is canonical. */
function baseFee(op: OperationJson, schedule: FeeScheduleJson): bigint {
  const [code, f] = op;
  const p = feeParams(schedule, code);
  const memoFee = (): bigint => (f.memo === undefined ? 0n : dataFee(guarded(() => packSize.optionalMemo(f.memo)), p.price_per_kbyte!));
  switch (code) {
    case 0: // transfer.cpp: fee, plus the memo's data fee when there is a memo
    case 27: // withdraw_permission.cpp: withdraw_permission_claim likewise
    case 38: // transfer.cpp: override_transfer likewise
      return p.fee! + memoFee();
    case 5: // account.cpp: basic or premium fee by name, plus the whole operation's data fee
      return (isCheapName(String(f.name ?? '')) ? p.basic_fee! : p.premium_fee!) + dataFee(structSize(op), p.price_per_kbyte!);
    case 6: // account.cpp: fee, plus the whole operation's data fee when the options change
      return p.fee! + (f.new_options === undefined ? 0n : dataFee(structSize(op), p.price_per_kbyte!));
    case 8: // account.cpp: the lifetime or the annual membership fee
      return bool(f.upgrade_to_lifetime_member) ? p.membership_lifetime_fee! : p.membership_annual_fee!;
    case 10: {
      // fee_schedule_calc.cpp and asset_ops.cpp: a sub-asset (a '.' in the symbol) costs account_transfer's
      // fee once the schedule has both account_transfer and ticket_create; otherwise the price goes by the
      // symbol's length in bytes; plus the whole operation's data fee
      const symbol = String(f.symbol ?? '');
      const subAssetFee = scheduleEntry(schedule, 9) && scheduleEntry(schedule, 57) ? scheduleEntry(schedule, 9)!.fee! : undefined;
      const length = Buffer.byteLength(symbol, 'utf8');
      const bySymbol = subAssetFee !== undefined && symbol.includes('.') ? subAssetFee : length === 3 ? p.symbol3! : length === 4 ? p.symbol4! : p.long_symbol!;
      return bySymbol + dataFee(structSize(op), p.price_per_kbyte!);
    }
    case 11: // asset_ops.cpp: asset_update
    case 22: // proposal.cpp: proposal_create (its proposed operations included)
    case 23: // proposal.cpp: proposal_update
    case 35: // custom.cpp
    case 69: // credit_offer.cpp: credit_offer_create
    case 71: // credit_offer.cpp: credit_offer_update
      return p.fee! + dataFee(structSize(op), p.price_per_kbyte!);
    case 14: // asset_ops.cpp: fee, plus the data fee of the optional memo (its flag byte included)
      return p.fee! + dataFee(guarded(() => packSize.optionalMemo(f.memo)), p.price_per_kbyte!);
    case 36: // assert.cpp: the fee once per predicate
      return p.fee! * BigInt((f.predicates as unknown[]).length);
    case 39: // confidential.cpp: transfer_to_blind and blind_transfer, a price per output
    case 40:
      return p.fee! + BigInt((f.outputs as unknown[]).length) * p.price_per_output!;
    case 49: {
      // htlc.cpp and fee_schedule_calc.cpp: fee per day of the claim period, plus the data fee of a memo
      // in the extensions at transfer's price_per_kbyte
      const ext = f.extensions as { memo?: unknown };
      const perKbyte = scheduleEntry(schedule, 0)?.price_per_kbyte ?? defaultFeeParameters(0).price_per_kbyte!;
      const memo = ext.memo === undefined ? 0n : dataFee(guarded(() => packSize.optionalMemo(ext.memo)), perKbyte);
      return p.fee! + p.fee_per_day! * htlcDays(f.claim_period_seconds) + memo;
    }
    case 50: // htlc.cpp: fee per started kilobyte of the preimage
      return p.fee! + BigInt(Math.ceil(hexLength(f.preimage) / 1024)) * p.fee_per_kb!;
    case 52: // htlc.cpp: fee per day added
      return p.fee! + p.fee_per_day! * htlcDays(f.seconds_to_add);
    case 54: // custom_authority.cpp: a price per byte of the restrictions and the authority
      return p.basic_fee! + p.price_per_byte! * BigInt(guarded(() => packSize.restrictions(f.restrictions) + packSize.authority(f.auth)));
    case 55: // custom_authority.cpp: per byte of the restrictions added and of the new authority, if any
      return (
        p.basic_fee! +
        p.price_per_byte! * BigInt(guarded(() => packSize.restrictions(f.restrictions_to_add))) +
        (f.new_auth === undefined ? 0n : p.price_per_byte! * BigInt(guarded(() => packSize.authority(f.new_auth))))
      );
    default:
      // base_operation::calculate_fee: the flat fee; virtual operations (empty fee_params_t) cost nothing
      return p.fee ?? 0n;
  }
}

/** fee_schedule::calculate_fee(op): the core-asset fee, scaled. */
export function calculateCoreFee(op: OperationJson, schedule: FeeScheduleJson): bigint {
  let fee = baseFee(op, schedule);
  // A schedule without `scale` keeps fee_schedule's default, 100%.
  const scale = schedule?.scale === undefined ? PERCENT_100 : toBig(schedule.scale, 'scale');
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

/**
 * database_api::get_required_fees for one operation (database_api.cpp get_required_fees_helper): the
 * fee asset, or for a proposal_create the pair `[its fee, [the fees of its proposed operations]]`.
 * The proposed operations get their fees first, each set into the proposal, so the proposal's own
 * data fee counts them; proposals nest at most `maxRecursion` deep.
 */
export function requiredFeesOf(op: unknown, schedule: FeeScheduleJson, rate: PriceJson, maxRecursion = GET_REQUIRED_FEES_MAX_RECURSION): unknown {
  let depth = 0;
  const feeOf = (o: OperationJson): unknown => {
    if (o[0] !== 22) {
      const f = setFee(o, schedule, rate);
      return { amount: i64(f.amount), asset_id: f.asset_id };
    }
    const nested: unknown[] = [];
    for (const wrapper of o[1].proposed_ops as { op: OperationJson }[]) {
      if (!(depth < maxRecursion)) throw new RpcError(assertError('current_recursion < max_recursion: '));
      depth++;
      nested.push(feeOf(wrapper.op));
      depth--;
    }
    const f = setFee(o, schedule, rate);
    return [{ amount: i64(f.amount), asset_id: f.asset_id }, nested];
  };
  return feeOf(normaliseOperation(op));
}
