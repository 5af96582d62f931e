// The genesis file: what a new data directory is created from, and what the chain id is derived from.
// Field names follow BitShares Core's genesis_state_type where they overlap.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseFcTime } from './fc-json.js';

export interface GenesisAccount {
  name: string;
  owner_key: string;
  active_key: string;
  memo_key?: string;
  is_lifetime_member: boolean;
}

/** A starting balance of the core asset. Core's genesis gives balances to addresses, to be claimed;
 * ours gives them to account names directly, which is what a devnet needs. */
export interface GenesisBalance {
  owner: string;
  amount: string;
}

export interface GenesisWitness {
  owner_name: string;
  block_signing_key: string;
}

export interface Genesis {
  initial_timestamp: string;
  max_core_supply: string;
  core_asset: { symbol: string; precision: number };
  initial_parameters: Record<string, unknown>;
  initial_accounts: GenesisAccount[];
  initial_balances: GenesisBalance[];
  initial_witness_candidates: GenesisWitness[];
}

/** The bundled genesis file, `config/genesis.json` beside the package. */
export const BUNDLED_GENESIS = fileURLToPath(new URL('../../../config/genesis.json', import.meta.url));

export class GenesisError extends Error {}

const ACCOUNT_NAME = /^[a-z][a-z0-9-]{1,62}[a-z0-9]$/;
const PUBLIC_KEY = /^[A-Z]{2,8}[1-9A-HJ-NP-Za-km-z]{40,60}$/;

/** Reads and checks a genesis file; the error names the file and the field at fault. */
export function loadGenesis(file: string): { genesis: Genesis; chainId: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new GenesisError(`genesis file ${file}: ${(err as Error).message}`);
  }
  const fail = (what: string): never => {
    throw new GenesisError(`genesis file ${file}: ${what}`);
  };
  const g = parsed as Partial<Genesis>;
  if (typeof g !== 'object' || g === null || Array.isArray(g)) fail('must be a JSON object');
  if (typeof g.initial_timestamp !== 'string' || Number.isNaN(parseFcTime(g.initial_timestamp))) fail("'initial_timestamp' must be a time like 2026-01-01T00:00:00");
  if (typeof g.max_core_supply !== 'string' || !/^\d{1,16}$/.test(g.max_core_supply)) fail("'max_core_supply' must be a decimal string");
  if (typeof g.core_asset !== 'object' || g.core_asset === null || typeof g.core_asset.symbol !== 'string' || !Number.isInteger(g.core_asset.precision))
    fail("'core_asset' must be {symbol, precision}");
  if (typeof g.initial_parameters !== 'object' || g.initial_parameters === null) fail("'initial_parameters' must be an object");
  if (!Array.isArray(g.initial_accounts)) fail("'initial_accounts' must be an array");
  const seen = new Set<string>();
  g.initial_accounts!.forEach((a, i) => {
    const at = `initial_accounts[${i}]`;
    if (typeof a?.name !== 'string' || !ACCOUNT_NAME.test(a.name)) fail(`${at}.name is not a valid account name`);
    if (seen.has(a.name)) fail(`${at}.name '${a.name}' appears twice`);
    seen.add(a.name);
    for (const k of ['owner_key', 'active_key'] as const) if (typeof a[k] !== 'string' || !PUBLIC_KEY.test(a[k])) fail(`${at}.${k} is not a public key`);
    if (a.memo_key !== undefined && (typeof a.memo_key !== 'string' || !PUBLIC_KEY.test(a.memo_key))) fail(`${at}.memo_key is not a public key`);
    if (typeof a.is_lifetime_member !== 'boolean') fail(`${at}.is_lifetime_member must be true or false`);
  });
  if (!Array.isArray(g.initial_balances)) fail("'initial_balances' must be an array");
  let total = 0n;
  g.initial_balances!.forEach((b, i) => {
    const at = `initial_balances[${i}]`;
    if (typeof b?.owner !== 'string' || !seen.has(b.owner)) fail(`${at}.owner must name one of initial_accounts`);
    if (typeof b.amount !== 'string' || !/^\d{1,16}$/.test(b.amount)) fail(`${at}.amount must be a decimal string`);
    total += BigInt(b.amount);
  });
  if (total > BigInt(g.max_core_supply!)) fail('initial_balances add up to more than max_core_supply');
  if (!Array.isArray(g.initial_witness_candidates) || g.initial_witness_candidates.length === 0) fail("'initial_witness_candidates' must list at least one witness");
  g.initial_witness_candidates!.forEach((w, i) => {
    const at = `initial_witness_candidates[${i}]`;
    if (typeof w?.owner_name !== 'string' || !seen.has(w.owner_name)) fail(`${at}.owner_name must name one of initial_accounts`);
    if (typeof w.block_signing_key !== 'string' || !PUBLIC_KEY.test(w.block_signing_key)) fail(`${at}.block_signing_key is not a public key`);
  });
  // BitShares Core hashes its own JSON rendering of the genesis state; we hash the compact JSON of the
  // parsed file, so whitespace and formatting do not change the chain id but any value does.
  const chainId = createHash('sha256').update(JSON.stringify(parsed)).digest('hex');
  return { genesis: g as Genesis, chainId };
}
