// Authority checks as BitShares Core does them (libraries/protocol/transaction.cpp: sign_state,
// verify_authority, signed_transaction::get_required_signatures; operations.cpp:
// operation_get_required_authorities), for every operation Core defines.
//
// An authority is satisfied when the weights of its keys (and addresses) that signed, plus the
// weights of its accounts whose own active (or owner) authority is satisfied, reach its threshold.
// Accounts nest at most `maxRecursion` levels deep (max_authority_depth of the global properties).
// `1.2.4` (temp-account) is approved by everybody, as in Core.
//
// Lookups are callbacks, so the same code serves database_api (reading stored accounts) and, later,
// the transaction validator. Failures throw RpcError shaped like Core's chain exceptions.

import { createHash } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1';
import { ASSERT, FC, RpcError, TX_EXCEPTIONS, assertError, type FcKind, fcError } from '../../errors.js';
import { addressPrefix, parsePublicKey, publicKeyAddress, formatAddress, parseAddress as parseAddressBytes } from '../crypto/public-key.js';
import { recoverPublicKey } from '../crypto/keys.js';
import { objectIdParts } from '../fc/object-id.js';
import { OPERATION_NAMES, canonicalOperation, signingDigest } from './serializer.js';

export interface AuthorityJson {
  weight_threshold: number;
  account_auths: [string, number][];
  key_auths: [string, number][];
  address_auths: [string, number][];
}

/** An account's authority, or undefined when the account does not exist. */
export type AuthorityLookup = (account: number) => AuthorityJson | undefined;

/** GRAPHENE_TEMP_ACCOUNT: "anybody can access funds in temp account". */
const TEMP_ACCOUNT = 4;
/** GRAPHENE_COMMITTEE_ACCOUNT */
const COMMITTEE_ACCOUNT = 0;


const txError = (kind: FcKind, format: string, data: Record<string, unknown> = {}): RpcError => new RpcError(fcError(kind, format, data));

const accountIdText = (instance: number): string => `1.2.${instance}`;

/** An account id's instance; anything else fails as Core's conversion to account_id_type does. */
function accountInstance(id: unknown): number {
  const p = objectIdParts(id);
  if (!p || p.space !== 1 || p.type !== 2) throw new RpcError(assertError(ASSERT.ID_TYPE_MISMATCH, { TypeID: 2, SpaceID: 1, var: id }));
  return p.instance;
}

// ---------------------------------------------------------------------------------------------
// Keys in Core's order

const keyAddressCache = new Map<string, Buffer>();

/** Public keys compare by their address (types.cpp `operator<`); sets of keys are sorted that way. */
export function keyOrder(key: string): Buffer {
  let a = keyAddressCache.get(key);
  if (!a) {
    a = Buffer.from(publicKeyAddress(parsePublicKey(key)));
    if (keyAddressCache.size > 10000) keyAddressCache.clear();
    keyAddressCache.set(key, a);
  }
  return a;
}

export const sortKeys = (keys: Iterable<string>): string[] => [...new Set(keys)].sort((a, b) => Buffer.compare(keyOrder(a), keyOrder(b)));

const sha256 = (b: Uint8Array): Buffer => createHash('sha256').update(b).digest();
const ripemd160 = (b: Uint8Array): Buffer => createHash('ripemd160').update(b).digest();

/** pts_address(key, compressed, version) (pts_address.cpp): version ‖ ripemd160(sha256(key)) ‖ checksum. */
function ptsAddress(key: Uint8Array, compressed: boolean, version: number): Buffer {
  const data = compressed ? key : secp256k1.ProjectivePoint.fromHex(key).toRawBytes(false);
  const body = Buffer.concat([Buffer.from([version]), ripemd160(sha256(data))]);
  return Buffer.concat([body, sha256(sha256(body)).subarray(0, 4)]);
}

/**
 * The five addresses a key may appear as in address_auths (sign_state::signed_by(address),
 * get_key_references): the four legacy PTS forms and the Graphene address. Text form, the chain's prefix.
 */
export function keyAddresses(key: string, prefix = addressPrefix()): string[] {
  const bin = parsePublicKey(key, prefix);
  const out: string[] = [];
  for (const [compressed, version] of [
    [false, 56],
    [true, 56],
    [false, 0],
    [true, 0],
  ] as const) {
    try {
      out.push(formatAddress(ripemd160(ptsAddress(bin, compressed, version)), prefix));
    } catch {
      // Not a point on the curve: Core would fail to decompress it too; it has no PTS forms.
    }
  }
  out.push(formatAddress(publicKeyAddress(bin), prefix));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Required authorities

export interface RequiredAuthorities {
  /** accounts whose active authority is required, ascending */
  active: number[];
  /** accounts whose owner authority is required, ascending */
  owner: number[];
  other: AuthorityJson[];
}

/**
 * Each operation's fee_payer() (the operation headers): the account whose active authority every
 * operation needs. blind_transfer and transfer_from_blind are paid from the blinded inputs, by
 * GRAPHENE_TEMP_ACCOUNT; committee_member_update_global_parameters by the committee (1.2.0).
 */
const FEE_PAYER: readonly (string | ((f: Record<string, unknown>) => unknown))[] = [
  /*  0 */ 'from', 'seller', 'fee_paying_account', 'funding_account', 'account_id', 'registrar', 'account', 'authorizing_account', 'account_to_upgrade', 'account_id',
  /* 10 */ 'issuer', 'issuer', 'issuer', 'issuer', 'issuer', 'payer', 'from_account', 'account', 'issuer', 'publisher',
  /* 20 */ 'witness_account', 'witness_account', 'fee_paying_account', 'fee_paying_account', 'fee_paying_account', 'withdraw_from_account', 'withdraw_from_account', 'withdraw_to_account', 'withdraw_from_account', 'committee_member_account',
  /* 30 */ 'committee_member_account', () => `1.2.${COMMITTEE_ACCOUNT}`, 'creator', 'owner', 'owner', 'payer', 'fee_paying_account', 'deposit_to_account', 'issuer', 'from',
  /* 40 */ () => `1.2.${TEMP_ACCOUNT}`, () => `1.2.${TEMP_ACCOUNT}`, 'account', 'issuer', 'account_id', 'bidder', 'bidder', 'issuer', 'issuer', 'from',
  /* 50 */ 'redeemer', 'to', 'update_issuer', 'to', 'account', 'account', 'account', 'account', 'account', 'account',
  /* 60 */ 'account', 'account', 'account', 'account', 'owner_account', 'owner_account', 'owner_account', 'borrower', 'account', 'owner_account',
  /* 70 */ 'owner_account', 'owner_account', 'borrower', 'account', 'borrower', 'account', 'account', 'seller',
];
if (FEE_PAYER.length !== OPERATION_NAMES.length) throw new Error('internal: the fee payer table and the operation table differ in length');

/** authority( 1, key, 1 ), or proposal_update's one of several keys: each of weight 1, all of them required. */
const keyAuthority = (keys: Iterable<string>): AuthorityJson => {
  const key_auths = sortKeys(keys).map((k): [string, number] => [k, 1]);
  return { weight_threshold: key_auths.length, account_auths: [], key_auths, address_auths: [] };
};

/**
 * operation_get_required_authorities (operations.cpp): the fee payer's active authority, then each
 * operation's get_required_active/owner_authorities and get_required_authorities. custom_operation's
 * required_auths count unless `ignoreCustomOperationRequiredAuths` (before HARDFORK_CORE_210 they did
 * not). `op` is read as Core's from_variant reads it, missing members defaulted.
 */
export function operationRequiredAuthorities(op: unknown, active: Set<number>, owner: Set<number>, other: AuthorityJson[], ignoreCustomOperationRequiredAuths = false): void {
  let code: number;
  let f: Record<string, unknown>;
  try {
    [code, f] = canonicalOperation(op);
  } catch (err) {
    if (err instanceof RpcError) throw err;
    throw new RpcError(fcError(FC.parse, '${error}', { error: (err as Error).message }));
  }
  const payer = FEE_PAYER[code]!;
  active.add(accountInstance(typeof payer === 'string' ? f[payer] : payer(f)));
  const ids = (v: unknown): number[] => (v as string[]).map(accountInstance);
  switch (code) {
    case 5: {
      // account_create: the buyback asset's issuer too, when buyback_options are set
      const buyback = (f.extensions as { buyback_options?: { asset_to_buy_issuer: string } }).buyback_options;
      if (buyback) active.add(accountInstance(buyback.asset_to_buy_issuer));
      return;
    }
    case 6: {
      // account_update: an owner update (owner or owner_special_authority) needs the owner authority
      const ext = f.extensions as { owner_special_authority?: unknown };
      if (f.owner !== undefined || ext.owner_special_authority !== undefined) owner.add(accountInstance(f.account));
      return;
    }
    case 23: {
      // proposal_update: the accounts whose approvals change, and one authority of all the keys whose do
      for (const a of [...ids(f.active_approvals_to_add), ...ids(f.active_approvals_to_remove)]) active.add(a);
      for (const a of [...ids(f.owner_approvals_to_add), ...ids(f.owner_approvals_to_remove)]) owner.add(a);
      const keys = [...(f.key_approvals_to_add as string[]), ...(f.key_approvals_to_remove as string[])];
      if (keys.length > 0) other.push(keyAuthority(keys));
      return;
    }
    case 35: // custom: its required_auths
      if (!ignoreCustomOperationRequiredAuths) for (const a of ids(f.required_auths)) active.add(a);
      return;
    case 37: // balance_claim: the key the balance belongs to
      other.push(keyAuthority([f.balance_owner_key as string]));
      return;
    case 40: // blind_transfer and transfer_from_blind: the owner of every input
    case 41:
      for (const input of f.inputs as { owner: AuthorityJson }[]) other.push(input.owner);
      return;
    case 48: // asset_update_issuer: the issuer's owner authority
      owner.add(accountInstance(f.issuer));
      return;
    case 35: // custom: the payer, and every account of required_auths (their active authority)
      // Core ignored required_auths before HARDFORK_CORE_210 (2020-07-30); every block of this
      // chain is later, so they count.
      active.add(accountInstance(f.payer));
      for (const a of Array.isArray(f.required_auths) ? f.required_auths : []) active.add(accountInstance(a));
      return;
    default:
  }
}

export interface RequiredAuthoritiesOptions {
  /** MUST_IGNORE_CUSTOM_OP_REQD_AUTHS: custom_operation's required_auths are not required */
  ignoreCustomOperationRequiredAuths?: boolean;
}

/** transaction::get_required_authorities: owner-required accounts are dropped from the active set. */
export function requiredAuthorities(ops: readonly unknown[], opts: RequiredAuthoritiesOptions = {}): RequiredAuthorities {
  const active = new Set<number>();
  const owner = new Set<number>();
  const other: AuthorityJson[] = [];
  for (const op of ops) operationRequiredAuthorities(op, active, owner, other, opts.ignoreCustomOperationRequiredAuths);
  for (const a of owner) active.delete(a);
  const asc = (s: Set<number>): number[] => [...s].sort((a, b) => a - b);
  return { active: asc(active), owner: asc(owner), other };
}

// ---------------------------------------------------------------------------------------------
// sign_state

export interface SignStateOptions {
  getActive: AuthorityLookup;
  getOwner: AuthorityLookup;
  /** HARDFORK_CORE_584: an account's owner authority may stand in for its active one at any depth */
  allowNonImmediateOwner: boolean;
  /** max_authority_depth */
  maxRecursion: number;
  /** keys that could sign (get_required_signatures) */
  availableKeys?: readonly string[];
  /** MUST_IGNORE_CUSTOM_OP_REQD_AUTHS: custom_operation's required_auths are not required */
  ignoreCustomOperationRequiredAuths?: boolean;
}

/** transaction.cpp `sign_state`: which provided or available keys an authority check used. */
export class SignState {
  /** key → used; iterated in key order when read out */
  readonly providedSignatures = new Map<string, boolean>();
  readonly approvedBy = new Set<number>([TEMP_ACCOUNT]);
  private readonly available: Set<string>;
  private addressIndex: { available: Map<string, string>; provided: Map<string, string> } | undefined;

  constructor(
    signatures: readonly string[],
    private readonly opts: SignStateOptions,
  ) {
    for (const k of signatures) this.providedSignatures.set(k, false);
    this.available = new Set(opts.availableKeys ?? []);
  }

  signedByKey(k: string): boolean {
    if (this.providedSignatures.has(k)) {
      this.providedSignatures.set(k, true);
      return true;
    }
    if (this.available.has(k)) {
      this.providedSignatures.set(k, true);
      return true;
    }
    return false;
  }

  signedByAddress(a: string): boolean {
    if (!this.addressIndex) {
      const index = (keys: Iterable<string>): Map<string, string> => {
        const m = new Map<string, string>();
        for (const k of keys) for (const addr of keyAddresses(k)) m.set(addr, k);
        return m;
      };
      this.addressIndex = { available: index(this.available), provided: index(this.providedSignatures.keys()) };
    }
    const provided = this.addressIndex.provided.get(a);
    if (provided !== undefined) {
      this.providedSignatures.set(provided, true);
      return true;
    }
    const available = this.addressIndex.available.get(a);
    if (available !== undefined && this.available.has(available)) {
      this.providedSignatures.set(available, true);
      return true;
    }
    return false;
  }

  /** check_authority(account_id_type): approved already, or its active, or (if allowed) its owner. */
  checkAccount(id: number): boolean {
    if (this.approvedBy.has(id)) return true;
    return this.check(this.opts.getActive(id)) || (this.opts.allowNonImmediateOwner && this.check(this.opts.getOwner(id)));
  }

  /** check_authority(const authority*, depth) */
  check(auth: AuthorityJson | undefined, depth = 0): boolean {
    if (!auth) return false;
    const threshold = Number(auth.weight_threshold);
    let total = 0;
    for (const [k, w] of auth.key_auths) {
      if (this.signedByKey(k)) {
        total += Number(w);
        if (total >= threshold) return true;
      }
    }
    for (const [a, w] of auth.address_auths) {
      if (this.signedByAddress(a)) {
        total += Number(w);
        if (total >= threshold) return true;
      }
    }
    for (const [id, w] of auth.account_auths) {
      const account = accountInstance(id);
      if (!this.approvedBy.has(account)) {
        if (depth === this.opts.maxRecursion) continue;
        if (this.check(this.opts.getActive(account), depth + 1) || (this.opts.allowNonImmediateOwner && this.check(this.opts.getOwner(account), depth + 1))) {
          this.approvedBy.add(account);
          total += Number(w);
          if (total >= threshold) return true;
        }
      } else {
        total += Number(w);
        if (total >= threshold) return true;
      }
    }
    return total >= threshold;
  }

  /** Drops provided keys no check used; true if there were any. */
  removeUnusedSignatures(): boolean {
    let removed = false;
    for (const [k, used] of this.providedSignatures) {
      if (!used) {
        this.providedSignatures.delete(k);
        removed = true;
      }
    }
    return removed;
  }
}

// ---------------------------------------------------------------------------------------------
// The three entry points database_api uses

/**
 * signed_transaction::get_signature_keys: the keys that produced the signatures over the chain's
 * signing digest. A repeated key is tx_duplicate_sig; an unrecoverable signature a parse error.
 */
export function signatureKeys(chainId: string, trx: { signatures?: unknown }, digest?: Uint8Array): string[] {
  const sigs = Array.isArray(trx.signatures) ? trx.signatures : [];
  if (sigs.length === 0) return [];
  const d = digest ?? signingDigest(chainId, trx);
  const out = new Set<string>();
  for (const sig of sigs) {
    let key: string;
    try {
      key = recoverPublicKey(d, String(sig));
    } catch (err) {
      throw new RpcError(assertError('false: cannot recover a public key from signature ${sig}: ${error}', { sig, error: (err as Error).message }));
    }
    if (out.has(key)) throw txError(TX_EXCEPTIONS.duplicateSig, 'Duplicate Signature detected');
    out.add(key);
  }
  return [...out];
}

export interface VerifyOptions extends SignStateOptions {
  /** verify_authority's allow_committee (false for transactions pushed by clients) */
  allowCommittee?: boolean;
  /** accounts whose active authority counts as given (a proposal's available_active_approvals) */
  activeApprovals?: Iterable<number>;
  /** accounts whose owner authority counts as given (a proposal's available_owner_approvals) */
  ownerApprovals?: Iterable<number>;
}

/**
 * protocol verify_authority(ops, sigs, …): throws tx_missing_*_auth naming the first account whose
 * authority the signatures do not satisfy, or tx_irrelevant_sig if a signature was not needed.
 */
export function verifyAuthority(ops: readonly unknown[], signatures: readonly string[], opts: VerifyOptions): void {
  const requiredActive = new Set<number>();
  const requiredOwner = new Set<number>();
  const other: AuthorityJson[] = [];
  const s = new SignState(signatures, { ...opts, availableKeys: [] });
  const ownerApprovals = new Set(opts.ownerApprovals ?? []);
  for (const id of opts.activeApprovals ?? []) s.approvedBy.add(id);
  for (const id of ownerApprovals) s.approvedBy.add(id);
  for (const op of ops) operationRequiredAuthorities(op, requiredActive, requiredOwner, other, opts.ignoreCustomOperationRequiredAuths);
  if (!opts.allowCommittee && requiredActive.has(COMMITTEE_ACCOUNT)) {
    throw txError(TX_EXCEPTIONS.invalidCommitteeApproval, 'Committee account may only propose transactions');
  }
  for (const auth of other) {
    if (!s.check(auth)) throw txError(TX_EXCEPTIONS.missingOtherAuth, 'Missing Authority', { auth, sigs: signatures });
  }
  const asc = (set: Set<number>): number[] => [...set].sort((a, b) => a - b);
  for (const id of asc(requiredOwner)) {
    if (!(ownerApprovals.has(id) || s.check(opts.getOwner(id)))) {
      throw txError(TX_EXCEPTIONS.missingOwnerAuth, 'Missing Owner Authority ${id}', { id: accountIdText(id), auth: opts.getOwner(id) ?? null });
    }
  }
  for (const id of asc(requiredActive)) {
    if (!(s.checkAccount(id) || s.check(opts.getOwner(id)))) {
      throw txError(TX_EXCEPTIONS.missingActiveAuth, 'Missing Active Authority ${id}', {
        id: accountIdText(id),
        auth: opts.getActive(id) ?? null,
        owner: opts.getOwner(id) ?? null,
      });
    }
  }
  if (s.removeUnusedSignatures()) throw txError(TX_EXCEPTIONS.irrelevantSig, 'Unnecessary signature(s) detected');
}

/**
 * signed_transaction::get_required_signatures: the available keys, not already signing, that
 * together with the existing signatures satisfy what the operations need. Sorted in key order.
 */
export function requiredSignatures(ops: readonly unknown[], existingSignatureKeys: readonly string[], opts: SignStateOptions): string[] {
  const { active, owner, other } = requiredAuthorities(ops, opts);
  const s = new SignState(existingSignatureKeys, opts);
  for (const auth of other) s.check(auth);
  for (const id of owner) s.check(opts.getOwner(id));
  for (const id of active) s.checkAccount(id) || s.check(opts.getOwner(id));
  s.removeUnusedSignatures();
  const available = new Set(opts.availableKeys ?? []);
  const existing = new Set(existingSignatureKeys);
  return sortKeys([...s.providedSignatures.keys()].filter((k) => available.has(k) && !existing.has(k)));
}

/**
 * database_api get_potential_signatures / get_potential_address_signatures: every key (or address)
 * of every authority a required-signatures walk looks at, plus the keys of "other" authorities.
 */
export function potentialSignatures(ops: readonly unknown[], existingSignatureKeys: readonly string[], opts: Omit<SignStateOptions, 'availableKeys'>): { keys: string[]; addresses: string[] } {
  const keys = new Set<string>();
  const addresses = new Set<string>();
  const collect =
    (lookup: AuthorityLookup): AuthorityLookup =>
    (id) => {
      const auth = lookup(id);
      if (auth) {
        for (const [k] of auth.key_auths) keys.add(k);
        for (const [a] of auth.address_auths) addresses.add(a);
      }
      return auth;
    };
  requiredSignatures(ops, existingSignatureKeys, { ...opts, getActive: collect(opts.getActive), getOwner: collect(opts.getOwner), availableKeys: [] });
  for (const auth of requiredAuthorities(ops, opts).other) for (const [k] of auth.key_auths) keys.add(k);
  const addressOrder = (a: string): Buffer => {
    try {
      return Buffer.from(parseAddressBytes(a));
    } catch {
      return Buffer.alloc(0);
    }
  };
  return { keys: sortKeys(keys), addresses: [...addresses].sort((a, b) => Buffer.compare(addressOrder(a), addressOrder(b))) };
}

