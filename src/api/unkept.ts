// The one list of calls about subsystems this chain does not keep (liquidity pools, SameT funds,
// credit offers and deals, withdraw permissions, tickets, blinded balances, vote tallies). Each keeps
// Core's argument conversions, name-or-id resolution and limit checks, in Core's order, and then
// answers as Core answers on a chain where no such object exists.
//
// Keyed by API set, then method; each set's entries are checked against its API-set table, so a
// misspelt method is a compile error. The worker handlers of the fixed answers write them from here
// (workers/handlers/unkept-answers.ts); the README section "Functions about subsystems this chain
// does not have" and test/unkept.test.ts are kept to exactly this list.
//
// A leaf module: it imports only the API-set tables.
import type { databaseApi } from './sets/database.js';
import type { historyApi } from './sets/history.js';

/**
 * What the call answers once its arguments pass:
 * - `[]`, `null`, `0`: that JSON;
 * - `null for each`: a list with one `null` per id or symbol asked for.
 */
export type UnkeptAnswer = '[]' | 'null' | '0' | 'null for each';

export interface Unkept {
  readonly answer: UnkeptAnswer;
  /** what this chain does not keep, in a few words */
  readonly why: string;
}

type EntriesFor<S extends { readonly methods: object }> = { readonly [M in keyof S['methods']]?: Unkept };

const NO_POOLS = 'no liquidity pools';
const NO_SAMET = 'no SameT funds';
const NO_CREDIT = 'no credit offers or deals';
const NO_WITHDRAW = 'no withdraw permissions';
const NO_TICKETS = 'no tickets';

export const UNKEPT = {
  database: {
    // Accounts
    get_top_voters: { answer: '[]', why: 'votes are not tallied' },
    // Liquidity pools
    list_liquidity_pools: { answer: '[]', why: NO_POOLS },
    get_liquidity_pools_by_asset_a: { answer: '[]', why: NO_POOLS },
    get_liquidity_pools_by_asset_b: { answer: '[]', why: NO_POOLS },
    get_liquidity_pools_by_one_asset: { answer: '[]', why: NO_POOLS },
    get_liquidity_pools_by_both_assets: { answer: '[]', why: NO_POOLS },
    get_liquidity_pools: { answer: 'null for each', why: NO_POOLS },
    get_liquidity_pools_by_share_asset: { answer: 'null for each', why: NO_POOLS },
    get_liquidity_pools_by_owner: { answer: '[]', why: NO_POOLS },
    // SameT funds
    list_samet_funds: { answer: '[]', why: NO_SAMET },
    get_samet_funds_by_owner: { answer: '[]', why: NO_SAMET },
    get_samet_funds_by_asset: { answer: '[]', why: NO_SAMET },
    // Credit offers and deals
    list_credit_offers: { answer: '[]', why: NO_CREDIT },
    get_credit_offers_by_owner: { answer: '[]', why: NO_CREDIT },
    get_credit_offers_by_asset: { answer: '[]', why: NO_CREDIT },
    list_credit_deals: { answer: '[]', why: NO_CREDIT },
    get_credit_deals_by_offer_id: { answer: '[]', why: NO_CREDIT },
    get_credit_deals_by_offer_owner: { answer: '[]', why: NO_CREDIT },
    get_credit_deals_by_borrower: { answer: '[]', why: NO_CREDIT },
    get_credit_deals_by_debt_asset: { answer: '[]', why: NO_CREDIT },
    get_credit_deals_by_collateral_asset: { answer: '[]', why: NO_CREDIT },
    // Blinded balances
    get_blinded_balances: { answer: '[]', why: 'no blinded balances' },
    // Withdrawals
    get_withdraw_permissions_by_giver: { answer: '[]', why: NO_WITHDRAW },
    get_withdraw_permissions_by_recipient: { answer: '[]', why: NO_WITHDRAW },
    // Tickets
    list_tickets: { answer: '[]', why: NO_TICKETS },
    get_tickets_by_account: { answer: '[]', why: NO_TICKETS },
  },
  history: {
    // The market_history plugin's liquidity pool calls, served as Core with the plugin on a chain without pools.
    get_liquidity_pool_history: { answer: '[]', why: NO_POOLS },
    get_liquidity_pool_history_by_sequence: { answer: '[]', why: NO_POOLS },
  },
} as const satisfies {
  readonly database: EntriesFor<typeof databaseApi>;
  readonly history: EntriesFor<typeof historyApi>;
};

export type UnkeptTable = typeof UNKEPT;
