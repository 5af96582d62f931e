// database_api (reference §4.1): every function of BitShares Core's FC_API list, in its order, with
// its exact parameters (fc::optional<> ones marked opt). The subscription functions need session
// state, and validate_transaction the block producer's pending state: they run in the front end
// (frontEnd); everything else runs in the worker pool.
import { defineApiSet, frontEnd, method, opt, req } from '../types.js';

/** The `limit, start_id` tail of the list_X / get_X_by_Y functions: both optional. */
const page = [opt('limit'), opt('start_id')] as const;
/** The liquidity-pool tail: optional limit, start id and with_statistics. */
const poolPage = [opt('limit'), opt('start_id'), opt('with_statistics')] as const;

export const databaseApi = defineApiSet({
  name: 'database',
  accessName: 'database_api',
  runsIn: 'pool',
  methods: {
    // Objects
    get_objects: method(req('ids'), opt('subscribe')),
    // Subscriptions
    set_subscribe_callback: frontEnd(req('cb'), req('notify_remove_create')),
    set_auto_subscription: frontEnd(req('enable')),
    set_pending_transaction_callback: frontEnd(req('cb')),
    set_block_applied_callback: frontEnd(req('cb')),
    cancel_all_subscriptions: frontEnd(),
    // Blocks and transactions
    get_block_header: method(req('block_num'), opt('with_witness_signature')),
    get_block_header_batch: method(req('block_nums'), opt('with_witness_signatures')),
    get_block: method(req('block_num')),
    get_transaction: method(req('block_num'), req('trx_in_block')),
    get_recent_transaction_by_id: method(req('txid')),
    // Globals
    get_chain_properties: method(),
    get_global_properties: method(),
    get_config: method(),
    get_chain_id: method(),
    get_dynamic_global_properties: method(),
    get_next_object_id: method(req('space_id'), req('type_id'), req('with_pending_transactions')),
    // Keys
    get_key_references: method(req('keys')),
    is_public_key_registered: method(req('public_key')),
    // Accounts
    get_account_id_from_string: method(req('name_or_id')),
    get_accounts: method(req('account_names_or_ids'), opt('subscribe')),
    get_full_accounts: method(req('names_or_ids'), opt('subscribe')),
    get_top_voters: method(req('limit')),
    get_account_by_name: method(req('name')),
    get_account_references: method(req('account_name_or_id')),
    lookup_account_names: method(req('account_names')),
    lookup_accounts: method(req('lower_bound_name'), req('limit'), opt('subscribe')),
    get_account_count: method(),
    // Balances
    get_account_balances: method(req('account_name_or_id'), req('assets')),
    get_named_account_balances: method(req('name'), req('assets')),
    get_balance_objects: method(req('addrs')),
    get_vested_balances: method(req('objs')),
    get_vesting_balances: method(req('account_name_or_id')),
    // Assets
    get_assets: method(req('asset_symbols_or_ids'), opt('subscribe')),
    list_assets: method(req('lower_bound_symbol'), req('limit')),
    lookup_asset_symbols: method(req('symbols_or_ids')),
    get_asset_count: method(),
    get_assets_by_issuer: method(req('issuer_name_or_id'), req('start'), req('limit')),
    get_asset_id_from_string: method(req('symbol_or_id')),
    // Markets / feeds
    get_order_book: method(req('base'), req('quote'), req('limit')),
    get_limit_orders: method(req('a'), req('b'), req('limit')),
    get_limit_orders_by_account: method(req('account_name_or_id'), opt('limit'), opt('start_id')),
    get_account_limit_orders: method(req('account_name_or_id'), req('base'), req('quote'), req('limit'), opt('ostart_id'), opt('ostart_price')),
    get_call_orders: method(req('a'), req('limit')),
    get_call_orders_by_account: method(req('account_name_or_id'), req('start'), req('limit')),
    get_settle_orders: method(req('a'), req('limit')),
    get_settle_orders_by_account: method(req('account_name_or_id'), req('start'), req('limit')),
    get_margin_positions: method(req('account_name_or_id')),
    get_collateral_bids: method(req('asset'), req('limit'), req('start')),
    subscribe_to_market: frontEnd(req('callback'), req('a'), req('b')),
    unsubscribe_from_market: frontEnd(req('a'), req('b')),
    get_ticker: method(req('base'), req('quote')),
    get_24_volume: method(req('base'), req('quote')),
    get_top_markets: method(req('limit')),
    get_trade_history: method(req('base'), req('quote'), req('start'), req('stop'), req('limit')),
    get_trade_history_by_sequence: method(req('base'), req('quote'), req('start'), req('stop'), req('limit')),
    // Liquidity pools
    list_liquidity_pools: method(...poolPage),
    get_liquidity_pools_by_asset_a: method(req('asset_symbol_or_id'), ...poolPage),
    get_liquidity_pools_by_asset_b: method(req('asset_symbol_or_id'), ...poolPage),
    get_liquidity_pools_by_one_asset: method(req('asset_symbol_or_id'), ...poolPage),
    get_liquidity_pools_by_both_assets: method(req('asset_symbol_or_id_a'), req('asset_symbol_or_id_b'), ...poolPage),
    get_liquidity_pools: method(req('ids'), opt('subscribe'), opt('with_statistics')),
    get_liquidity_pools_by_share_asset: method(req('asset_symbols_or_ids'), opt('subscribe'), opt('with_statistics')),
    get_liquidity_pools_by_owner: method(req('account_name_or_id'), ...poolPage),
    // SameT funds
    list_samet_funds: method(...page),
    get_samet_funds_by_owner: method(req('account_name_or_id'), ...page),
    get_samet_funds_by_asset: method(req('asset_symbol_or_id'), ...page),
    // Credit offers and credit deals
    list_credit_offers: method(...page),
    get_credit_offers_by_owner: method(req('account_name_or_id'), ...page),
    get_credit_offers_by_asset: method(req('asset_symbol_or_id'), ...page),
    list_credit_deals: method(...page),
    get_credit_deals_by_offer_id: method(req('offer_id'), ...page),
    get_credit_deals_by_offer_owner: method(req('account_name_or_id'), ...page),
    get_credit_deals_by_borrower: method(req('account_name_or_id'), ...page),
    get_credit_deals_by_debt_asset: method(req('asset_symbol_or_id'), ...page),
    get_credit_deals_by_collateral_asset: method(req('asset_symbol_or_id'), ...page),
    // Witnesses
    get_witnesses: method(req('witness_ids')),
    get_witness_by_account: method(req('account_name_or_id')),
    lookup_witness_accounts: method(req('lower_bound_name'), req('limit')),
    get_witness_count: method(),
    // Committee members
    get_committee_members: method(req('committee_member_ids')),
    get_committee_member_by_account: method(req('account_name_or_id')),
    lookup_committee_member_accounts: method(req('lower_bound_name'), req('limit')),
    get_committee_count: method(),
    // Workers
    get_all_workers: method(opt('is_expired')),
    get_workers_by_account: method(req('account_name_or_id')),
    get_worker_count: method(),
    // Votes
    lookup_vote_ids: method(req('votes')),
    // Authority / validation
    get_transaction_hex: method(req('trx')),
    get_transaction_hex_without_sig: method(req('trx')),
    get_required_signatures: method(req('trx'), req('available_keys')),
    get_potential_signatures: method(req('trx')),
    get_potential_address_signatures: method(req('trx')),
    verify_authority: method(req('trx')),
    verify_account_authority: method(req('account_name_or_id'), req('signers')),
    // Applied to the pending state and undone: the block producer's, in the front end.
    validate_transaction: frontEnd(req('trx')),
    get_required_fees: method(req('ops'), req('asset_symbol_or_id')),
    // Proposed transactions
    get_proposed_transactions: method(req('account_name_or_id')),
    // Blinded balances
    get_blinded_balances: method(req('commitments')),
    // Withdrawals
    get_withdraw_permissions_by_giver: method(req('account_name_or_id'), req('start'), req('limit')),
    get_withdraw_permissions_by_recipient: method(req('account_name_or_id'), req('start'), req('limit')),
    // HTLC
    get_htlc: method(req('id'), opt('subscribe')),
    get_htlc_by_from: method(req('account_name_or_id'), req('start'), req('limit')),
    get_htlc_by_to: method(req('account_name_or_id'), req('start'), req('limit')),
    list_htlcs: method(req('start'), req('limit')),
    // Tickets
    list_tickets: method(...page),
    get_tickets_by_account: method(req('account_name_or_id'), ...page),
  },
});
