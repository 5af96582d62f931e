// The genesis file: what a new data directory is created from, and what the chain id is derived from.
//
// Two forms are read:
//  - BitShares Core's genesis_state_type (libraries/chain/include/graphene/chain/genesis_state.hpp),
//    as `witness_node --genesis-json` reads it. Its core asset is named by the build
//    (GRAPHENE_SYMBOL): here after the key prefix, as in Core's builds (BTS, TEST), with 5 digits.
//    The chain id is sha256 of the file's bytes, as Core computes it (application.cpp), so a client
//    that knows the chain id of a Core testnet's genesis knows this node's.
//  - This node's devnet form, which names its core asset (`core_asset`, a field Core does not have)
//    and whose witnesses start at 1.6.0. Its chain id is the sha256 of the compact JSON of the parsed
//    file, so formatting does not change it (data directories made from it keep their chain id).
// In both, an `initial_balances` entry whose owner is an address is a balance object (1.15.x) to be
// claimed with balance_claim, as in Core; one whose owner is an account name is credited to that
// account at once (this node's extension: a devnet's accounts start funded).

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseFcTime } from '../fc/fc-json.js';
import { addressPrefix, parseAddress, parsePublicKey } from '../crypto/public-key.js';

export interface GenesisAccount {
  name: string;
  owner_key: string;
  active_key: string;
  /** this node's devnet form only; Core makes the active key the memo key */
  memo_key?: string;
  is_lifetime_member: boolean;
}

/** Core's initial_asset_type, for user-issued assets (market-issued ones are refused). */
export interface GenesisAsset {
  symbol: string;
  issuer_name: string;
  description: string;
  precision: number;
  max_supply: string;
  accumulated_fees: string;
}

/** A starting balance. Owned by an address: a balance object to claim (Core); by an account name: credited to it. */
export interface GenesisBalance {
  owner: string;
  asset_symbol: string;
  amount: string;
}

export interface GenesisWitness {
  owner_name: string;
  block_signing_key: string;
}

export interface GenesisCommitteeMember {
  owner_name: string;
}

/** immutable_chain_parameters, with Core's defaults (chain/immutable_chain_parameters.hpp). */
export interface ImmutableParameters {
  min_committee_member_count: number;
  min_witness_count: number;
  num_special_accounts: number;
  num_special_assets: number;
}

/** A genesis file, read: both forms in one shape, with every default filled in. */
export interface Genesis {
  /** 'core': BitShares Core's genesis_state_type; 'devnet': this node's form (has `core_asset`) */
  format: 'core' | 'devnet';
  initial_timestamp: string;
  max_core_supply: string;
  core_asset: { symbol: string; precision: number };
  initial_parameters: Record<string, unknown>;
  immutable_parameters: ImmutableParameters;
  initial_accounts: GenesisAccount[];
  initial_assets: GenesisAsset[];
  initial_balances: GenesisBalance[];
  /** how many of the witness candidates are active (Core: witness_id_type(1) … (n)) */
  initial_active_witnesses: number;
  initial_witness_candidates: GenesisWitness[];
  initial_committee_candidates: GenesisCommitteeMember[];
  /** the instance of the first witness: Core reserves 1.6.0 (GRAPHENE_NULL_WITNESS); the devnet form starts there */
  first_witness_instance: number;
}

/** The bundled genesis file, `config/genesis.json` beside the package. */
export const BUNDLED_GENESIS = fileURLToPath(new URL('../../../../config/genesis.json', import.meta.url));

export class GenesisError extends Error {}

const ACCOUNT_NAME = /^[a-z][a-z0-9-]{1,62}[a-z0-9]$/;
const SYMBOL = /^[A-Z][A-Z0-9.]{1,14}[A-Z]$/;
/** GRAPHENE_BLOCKCHAIN_PRECISION_DIGITS */
const CORE_PRECISION = 5;
/** GRAPHENE_MAX_SHARE_SUPPLY */
const MAX_SHARE_SUPPLY = 1_000_000_000_000_000n;
/** GRAPHENE_DEFAULT_BLOCK_INTERVAL: Core asserts the genesis time is a multiple of it (db_genesis.cpp) */
const CORE_DEFAULT_BLOCK_INTERVAL = 5;
const DEFAULT_IMMUTABLE: ImmutableParameters = { min_committee_member_count: 11, min_witness_count: 11, num_special_accounts: 0, num_special_assets: 0 };

/** Reads and checks a genesis file; the error names the file and the field at fault. Keys carry the chain's prefix. */
export function loadGenesis(file: string): { genesis: Genesis; chainId: string } {
  let text: string;
  let parsed: unknown;
  try {
    text = readFileSync(file, 'utf8');
    parsed = JSON.parse(text);
  } catch (err) {
    throw new GenesisError(`genesis file ${file}: ${(err as Error).message}`);
  }
  const genesis = readGenesis(parsed, (what) => {
    throw new GenesisError(`genesis file ${file}: ${what}`);
  });
  // Core hashes the file as read (application.cpp: sha256::hash(genesis_str)); the devnet form hashes
  // the compact JSON of the parsed file, as this node always has, so its data directories still open.
  const chainId = createHash('sha256')
    .update(genesis.format === 'core' ? text : JSON.stringify(parsed))
    .digest('hex');
  return { genesis, chainId };
}

/** share_type from JSON: Core writes it as a number or a decimal string. */
function shareText(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return String(v);
  if (typeof v === 'string' && /^\d{1,19}$/.test(v) && BigInt(v) <= MAX_SHARE_SUPPLY) return String(BigInt(v));
  return undefined;
}

function readGenesis(parsed: unknown, fail: (what: string) => never): Genesis {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) fail('must be a JSON object');
  const g = parsed as Record<string, unknown>;
  const format = g.core_asset === undefined ? 'core' : 'devnet';
  const isKey = (v: unknown): v is string => {
    try {
      parsePublicKey(v);
      return true;
    } catch {
      return false;
    }
  };
  const keyError = (at: string, v: unknown): string => `${at} is not a public key with the chain's prefix ${addressPrefix()} (got ${JSON.stringify(v)})`;

  const timestamp = g.initial_timestamp;
  if (typeof timestamp !== 'string' || Number.isNaN(parseFcTime(timestamp))) fail("'initial_timestamp' must be a time like 2026-01-01T00:00:00");
  if (format === 'core' && parseFcTime(timestamp as string) % CORE_DEFAULT_BLOCK_INTERVAL !== 0) fail(`'initial_timestamp' must be a multiple of ${CORE_DEFAULT_BLOCK_INTERVAL} seconds, as BitShares Core requires`);
  const maxCoreSupply = g.max_core_supply === undefined && format === 'core' ? MAX_SHARE_SUPPLY.toString() : shareText(g.max_core_supply);
  if (maxCoreSupply === undefined) fail("'max_core_supply' must be an amount up to 1000000000000000");

  let coreAsset: { symbol: string; precision: number };
  if (format === 'devnet') {
    const c = g.core_asset as { symbol?: unknown; precision?: unknown } | null;
    if (typeof c !== 'object' || c === null || typeof c.symbol !== 'string' || !Number.isInteger(c.precision)) fail("'core_asset' must be {symbol, precision}");
    coreAsset = { symbol: c!.symbol as string, precision: c!.precision as number };
  } else {
    coreAsset = { symbol: addressPrefix(), precision: CORE_PRECISION };
  }
  if (typeof g.initial_parameters !== 'object' || g.initial_parameters === null || Array.isArray(g.initial_parameters)) fail("'initial_parameters' must be an object");

  const immutable: ImmutableParameters = { ...DEFAULT_IMMUTABLE };
  if (g.immutable_parameters !== undefined) {
    const im = g.immutable_parameters as Record<string, unknown>;
    if (typeof im !== 'object' || im === null) fail("'immutable_parameters' must be an object");
    for (const k of Object.keys(DEFAULT_IMMUTABLE) as (keyof ImmutableParameters)[]) {
      if (im[k] === undefined) continue;
      if (!Number.isInteger(im[k]) || (im[k] as number) < 0 || (im[k] as number) > 0xffff) fail(`immutable_parameters.${k} must be an integer from 0 to 65535`);
      immutable[k] = im[k] as number;
    }
  }

  if (!Array.isArray(g.initial_accounts)) fail("'initial_accounts' must be an array");
  const names = new Set<string>();
  const accounts: GenesisAccount[] = (g.initial_accounts as unknown[]).map((raw, i) => {
    const a = raw as Record<string, unknown>;
    const at = `initial_accounts[${i}]`;
    if (typeof a?.name !== 'string' || !ACCOUNT_NAME.test(a.name)) fail(`${at}.name is not a valid account name`);
    const name = a.name as string;
    if (names.has(name)) fail(`${at}.name '${name}' appears twice`);
    names.add(name);
    if (!isKey(a.owner_key)) fail(keyError(`${at}.owner_key`, a.owner_key));
    // Core: an active key left out (the null key) is the owner key.
    const active = a.active_key === undefined ? a.owner_key : a.active_key;
    if (!isKey(active)) fail(keyError(`${at}.active_key`, a.active_key));
    if (a.memo_key !== undefined && !isKey(a.memo_key)) fail(keyError(`${at}.memo_key`, a.memo_key));
    if (a.is_lifetime_member !== undefined && typeof a.is_lifetime_member !== 'boolean') fail(`${at}.is_lifetime_member must be true or false`);
    if (format === 'devnet' && typeof a.is_lifetime_member !== 'boolean') fail(`${at}.is_lifetime_member must be true or false`);
    return {
      name,
      owner_key: a.owner_key as string,
      active_key: active as string,
      ...(a.memo_key !== undefined ? { memo_key: a.memo_key as string } : {}),
      is_lifetime_member: a.is_lifetime_member === true,
    };
  });

  const symbols = new Set<string>([coreAsset.symbol]);
  const assets: GenesisAsset[] = ((g.initial_assets ?? []) as unknown[]).map((raw, i) => {
    const a = raw as Record<string, unknown>;
    const at = `initial_assets[${i}]`;
    if (typeof a?.symbol !== 'string' || !SYMBOL.test(a.symbol)) fail(`${at}.symbol is not a valid asset symbol`);
    if (symbols.has(a.symbol as string)) fail(`${at}.symbol '${a.symbol as string}' appears twice`);
    symbols.add(a.symbol as string);
    if (typeof a.issuer_name !== 'string' || !names.has(a.issuer_name)) fail(`${at}.issuer_name must name one of initial_accounts`);
    if (a.is_bitasset === true) fail(`${at}: market-issued assets (is_bitasset) are not supported on this chain`);
    const precision = a.precision ?? CORE_PRECISION;
    if (!Number.isInteger(precision) || (precision as number) < 0 || (precision as number) > 12) fail(`${at}.precision must be an integer from 0 to 12`);
    const maxSupply = shareText(a.max_supply ?? 0);
    const fees = shareText(a.accumulated_fees ?? 0);
    if (maxSupply === undefined) fail(`${at}.max_supply must be an amount up to 1000000000000000`);
    if (fees === undefined) fail(`${at}.accumulated_fees must be an amount up to 1000000000000000`);
    if (a.description !== undefined && typeof a.description !== 'string') fail(`${at}.description must be a string`);
    return { symbol: a.symbol as string, issuer_name: a.issuer_name as string, description: (a.description as string | undefined) ?? '', precision: precision as number, max_supply: maxSupply!, accumulated_fees: fees! };
  });

  if (!Array.isArray(g.initial_balances)) fail("'initial_balances' must be an array");
  const supplies = new Map<string, bigint>([[coreAsset.symbol, 0n], ...assets.map((a) => [a.symbol, BigInt(a.accumulated_fees)] as [string, bigint])]);
  const balances: GenesisBalance[] = (g.initial_balances as unknown[]).map((raw, i) => {
    const b = raw as Record<string, unknown>;
    const at = `initial_balances[${i}]`;
    const owner = b?.owner;
    let isAddress = false;
    try {
      parseAddress(owner);
      isAddress = true;
    } catch {
      // not an address: an account name, or wrong
    }
    if (!isAddress && !(typeof owner === 'string' && names.has(owner))) fail(`${at}.owner must be an address with the chain's prefix ${addressPrefix()}, or name one of initial_accounts`);
    const symbol = b.asset_symbol ?? (isAddress ? undefined : coreAsset.symbol);
    if (typeof symbol !== 'string' || !supplies.has(symbol)) fail(`${at}.asset_symbol must be the core asset's symbol ${coreAsset.symbol} or one of initial_assets`);
    const amount = shareText(b.amount);
    if (amount === undefined) fail(`${at}.amount must be an amount up to 1000000000000000`);
    supplies.set(symbol as string, supplies.get(symbol as string)! + BigInt(amount!));
    return { owner: owner as string, asset_symbol: symbol as string, amount: amount! };
  });
  if (supplies.get(coreAsset.symbol)! > BigInt(maxCoreSupply!)) fail('initial_balances add up to more than max_core_supply');
  for (const a of assets) if (supplies.get(a.symbol)! > BigInt(a.max_supply)) fail(`initial_balances of ${a.symbol} add up to more than its max_supply`);

  // Vesting genesis balances and workers need subsystems this chain does not have.
  if (Array.isArray(g.initial_vesting_balances) && g.initial_vesting_balances.length > 0) fail("'initial_vesting_balances': vesting genesis balances are not supported on this chain");
  if (Array.isArray(g.initial_worker_candidates) && g.initial_worker_candidates.length > 0) fail("'initial_worker_candidates': workers are not supported on this chain");

  if (!Array.isArray(g.initial_witness_candidates) || g.initial_witness_candidates.length === 0) fail("'initial_witness_candidates' must list at least one witness");
  const witnesses: GenesisWitness[] = (g.initial_witness_candidates as unknown[]).map((raw, i) => {
    const w = raw as Record<string, unknown>;
    const at = `initial_witness_candidates[${i}]`;
    if (typeof w?.owner_name !== 'string' || !names.has(w.owner_name)) fail(`${at}.owner_name must name one of initial_accounts`);
    if (!isKey(w.block_signing_key)) fail(keyError(`${at}.block_signing_key`, w.block_signing_key));
    return { owner_name: w.owner_name as string, block_signing_key: w.block_signing_key as string };
  });
  const active = g.initial_active_witnesses ?? (format === 'core' ? DEFAULT_IMMUTABLE.min_witness_count : witnesses.length);
  if (!Number.isInteger(active) || (active as number) < 1) fail("'initial_active_witnesses' must be a positive integer");
  if ((active as number) > witnesses.length) fail('initial_active_witnesses is larger than the number of candidate witnesses.');

  const committee: GenesisCommitteeMember[] = ((g.initial_committee_candidates ?? []) as unknown[]).map((raw, i) => {
    const c = raw as Record<string, unknown>;
    if (typeof c?.owner_name !== 'string' || !names.has(c.owner_name)) fail(`initial_committee_candidates[${i}].owner_name must name one of initial_accounts`);
    return { owner_name: c.owner_name as string };
  });

  return {
    format,
    initial_timestamp: timestamp as string,
    max_core_supply: maxCoreSupply!,
    core_asset: coreAsset!,
    initial_parameters: g.initial_parameters as Record<string, unknown>,
    immutable_parameters: immutable,
    initial_accounts: accounts,
    initial_assets: assets,
    initial_balances: balances,
    initial_active_witnesses: active as number,
    initial_witness_candidates: witnesses,
    initial_committee_candidates: committee,
    first_witness_instance: format === 'core' ? 1 : 0,
  };
}
