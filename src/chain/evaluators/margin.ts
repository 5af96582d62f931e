// The margin engine of market-issued assets (db_market.cpp, db_update.cpp): debt positions matched
// against the order book when a feed moves or an order arrives, force settlements, global settlement
// and its revival by collateral bids.

import { ChainError } from './chain-error.js';
import type { EvalContext } from './ledger.js';
import type { Bid, Bitasset, Settlement } from './bitasset-data.js';
import type { Price } from '../protocol/price.js';

const notYet = (): never => {
  throw new ChainError('market-issued assets: the margin engine is being built');
};

/** database::check_call_orders: margin calls of `asset` against the book; true when any matched or it settled globally. */
export function checkCallOrders(_ctx: EvalContext, _asset: number, _enableBlackSwan: boolean, _forNewLimitOrder: boolean): boolean {
  return notYet();
}

/** database::globally_settle_asset */
export function globallySettleAsset(_ctx: EvalContext, _asset: number, _settlementPrice: Price, _checkMarginCalls: boolean): void {
  notYet();
}

/** database::apply_force_settlement: a new settlement order matched at once with margin calls (hardfork core-2481). */
export function applyForceSettlement(_ctx: EvalContext, _settlement: Settlement, _bitasset: Bitasset): void {
  notYet();
}

/** database::cancel_bid */
export function cancelBid(_ctx: EvalContext, _bid: Bid, _createVirtualOp: boolean): void {
  notYet();
}

/** database::revive_bitasset */
export function reviveBitasset(_ctx: EvalContext, _bitasset: Bitasset): void {
  notYet();
}
