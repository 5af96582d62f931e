// The api-access file (reference §2): who may use which API sets, and the password check.
//
// The hash is BitShares Core's: sha256(password bytes ‖ salt bytes), both base64 with padding; the
// salt is 8 random bytes (programs/witness_node/saltpass.py). Entries made by Core's helper verify
// here and ours verify there.

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** The API set names an access entry can grant (login_api getters, reference §1.1). */
export const API_SET_NAMES = [
  'block_api',
  'network_broadcast_api',
  'database_api',
  'history_api',
  'network_node_api',
  'crypto_api',
  'asset_api',
  'orders_api',
  'debug_api',
  'custom_operations_api',
  // this node's own (the deposit feed); Core ignores the name
  'deposits_api',
] as const;

/**
 * Per-user limits, from optional fields of an access entry that only this node reads (BitShares
 * Core's from_variant ignores members it does not know, so the file stays valid for Core). Each
 * overrides the node-wide option for sessions logged in as that user.
 */
export interface UserLimits {
  /** `max_calls_per_second`: calls per second over all of the user's connections */
  readonly maxCallsPerSecond?: number;
  /** `max_connections`: sessions logged in as the user at once */
  readonly maxConnections?: number;
  /** `call_budget_ms`: instead of --call-budget-ms */
  readonly callBudgetMs?: number;
}

export interface AccessEntry {
  readonly passwordHash: Buffer | '*';
  readonly passwordSalt: Buffer | '*';
  /** sorted, as Core's flat_set */
  readonly allowedApis: readonly string[];
  readonly limits: UserLimits;
}

/** What a successful login gives a session. */
export interface Grant {
  /** the access entry's user name ('*' for the wildcard entry) */
  readonly entry: string;
  readonly allowed: readonly string[];
  readonly limits: UserLimits;
  /** the entry it came from: after a reload, `regrant` holds the session to the entry now in force */
  readonly from: AccessEntry;
}

/** The optional per-user limit fields, by their names in the file. */
const LIMIT_FIELDS = { max_calls_per_second: 'maxCallsPerSecond', max_connections: 'maxConnections', call_budget_ms: 'callBudgetMs' } as const;

export interface AccessPolicy {
  /** username → entry; '*' matches any user not listed */
  readonly users: ReadonlyMap<string, AccessEntry>;
  /** Names in the file that no API set has; Core ignores them, we warn about them. */
  readonly unknownApiNames: readonly string[];
}

/** BitShares Core's policy when no api-access file is given (application.cpp:299-325). */
export function defaultAccessPolicy(): AccessPolicy {
  const entry: AccessEntry = {
    passwordHash: '*',
    passwordSalt: '*',
    allowedApis: ['custom_operations_api', 'database_api', 'history_api', 'network_broadcast_api', 'orders_api'],
    limits: {},
  };
  return { users: new Map([['*', entry]]), unknownApiNames: [] };
}

export class AccessFileError extends Error {}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Parses the file's JSON; every fault names the file and the entry. */
export function parseAccessFile(text: string, file: string): AccessPolicy {
  const fail = (what: string): never => {
    throw new AccessFileError(`api-access file ${file}: ${what}`);
  };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    fail(`not valid JSON (${(err as Error).message})`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) fail('must be a JSON object with a "permission_map" array');
  const map = (doc as { permission_map?: unknown }).permission_map;
  if (!Array.isArray(map)) fail('"permission_map" must be an array of [username, entry] pairs');
  const users = new Map<string, AccessEntry>();
  const unknown = new Set<string>();
  (map as unknown[]).forEach((pair, i) => {
    const at = `permission_map[${i}]`;
    if (!Array.isArray(pair) || pair.length !== 2) fail(`${at} must be a [username, entry] pair`);
    const [user, entry] = pair as [unknown, unknown];
    if (typeof user !== 'string') fail(`${at}: the username must be a string`);
    const who = `${at} ("${user as string}")`;
    if (users.has(user as string)) fail(`${who}: user listed twice`);
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) fail(`${who}: the entry must be an object`);
    const e = entry as Record<string, unknown>;
    // As Core's from_variant, a missing salt or allowed_apis keeps its default ("" and no sets); a
    // missing hash would lock the user out for good, so it is refused as a mistake.
    const hash = e.password_hash_b64;
    const salt = e.password_salt_b64 ?? '';
    const apis = e.allowed_apis ?? [];
    if (typeof hash !== 'string') fail(`${who}: "password_hash_b64" must be a string`);
    if (typeof salt !== 'string') fail(`${who}: "password_salt_b64" must be a string`);
    let passwordHash: Buffer | '*' = '*';
    let passwordSalt: Buffer | '*' = '*';
    if (hash !== '*') {
      if (!BASE64.test(hash as string)) fail(`${who}: "password_hash_b64" is not base64`);
      passwordHash = Buffer.from(hash as string, 'base64');
      if (passwordHash.length !== 32) fail(`${who}: "password_hash_b64" must hold the 32 bytes of a sha256 hash, not ${passwordHash.length}`);
      if (salt === '*' || salt === '' || !BASE64.test(salt as string)) fail(`${who}: "password_salt_b64" must be the base64 salt that goes with the hash`);
      passwordSalt = Buffer.from(salt as string, 'base64');
    }
    if (!Array.isArray(apis) || apis.some((a) => typeof a !== 'string')) fail(`${who}: "allowed_apis" must be an array of API set names`);
    for (const a of apis as string[]) if (!(API_SET_NAMES as readonly string[]).includes(a)) unknown.add(a);
    const limits: Record<string, number> = {};
    for (const [field, key] of Object.entries(LIMIT_FIELDS)) {
      const v = e[field];
      if (v === undefined) continue;
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 0xffffffff) fail(`${who}: "${field}" must be a positive integer`);
      limits[key] = v as number;
    }
    users.set(user as string, { passwordHash, passwordSalt, allowedApis: [...new Set(apis as string[])].sort(), limits });
  });
  return { users, unknownApiNames: [...unknown].sort() };
}

export function loadAccessFile(file: string): AccessPolicy {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new AccessFileError(`api-access file ${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  return parseAccessFile(text, file);
}

export const passwordDigest = (password: string, salt: Buffer): Buffer =>
  createHash('sha256').update(Buffer.concat([Buffer.from(password, 'utf8'), salt])).digest();

/** The access-file fields for a password, with a fresh 8-byte salt (as Core's saltpass.py). */
export function hashPassword(password: string, salt: Buffer = randomBytes(8)): { password_hash_b64: string; password_salt_b64: string } {
  return { password_hash_b64: passwordDigest(password, salt).toString('base64'), password_salt_b64: salt.toString('base64') };
}

// Unknown users are checked against this entry, so that they cost the same hash and compare as a
// wrong password and cannot be told apart by timing.
const decoy: AccessEntry = { passwordHash: randomBytes(32), passwordSalt: randomBytes(8), allowedApis: [], limits: {} };

/**
 * Core's login check (api.cpp:56-85): the user's own entry if listed (a wrong password never falls back
 * to '*'), else the '*' entry. Returns the allowed API sets, or undefined when the login fails.
 */
export function grantFor(policy: AccessPolicy, user: string, password: string): Grant | undefined {
  const name = policy.users.has(user) ? user : '*';
  const entry = policy.users.get(name);
  const e = entry ?? decoy;
  const ok = e.passwordHash === '*' || timingSafeEqual(passwordDigest(password, e.passwordSalt as Buffer), e.passwordHash);
  if (!ok || !entry) return undefined;
  return grantOf(entry, name);
}

// One grant per entry, made once: every anonymous HTTP request logs in, and need not allocate to.
const grants = new WeakMap<AccessEntry, Grant>();

function grantOf(entry: AccessEntry, name: string): Grant {
  let grant = grants.get(entry);
  if (!grant) grants.set(entry, (grant = Object.freeze({ entry: name, allowed: entry.allowedApis, limits: entry.limits, from: entry })));
  return grant;
}

const samePassword = (a: AccessEntry, b: AccessEntry): boolean =>
  a.passwordHash === '*' || b.passwordHash === '*'
    ? a.passwordHash === b.passwordHash
    : a.passwordHash.equals(b.passwordHash) && (a.passwordSalt as Buffer).equals(b.passwordSalt as Buffer);

/**
 * What a login `user` made under earlier rules gives under `policy` (a reloaded access file), without
 * its password, which was checked at the login and is not kept: the user must fall under the same
 * entry as then (its own, or '*' while it is still not listed) with the same password hash and salt,
 * and it then gets that entry's API sets and limits as they are now. Undefined when the user has lost
 * its entry or its password was changed: the session is refused until it logs in again.
 */
export function regrant(policy: AccessPolicy, user: string, before: Grant): Grant | undefined {
  const name = policy.users.has(user) ? user : '*';
  const entry = policy.users.get(name);
  if (!entry || name !== before.entry || !samePassword(entry, before.from)) return undefined;
  return grantOf(entry, name);
}

/** The allowed API sets of a login, or undefined when it fails (grantFor without the limits). */
export const authenticate = (policy: AccessPolicy, user: string, password: string): readonly string[] | undefined => grantFor(policy, user, password)?.allowed;

/** Splits an `Authorization: Basic` header into user and password; undefined when malformed. */
export function parseBasicAuth(header: string): { user: string; password: string } | undefined {
  // Core compares the scheme case-sensitively; RFC 7617 says it is case-insensitive. Accept both.
  const m = /^basic +([A-Za-z0-9+/=]*)\s*$/i.exec(header);
  if (!m) return undefined;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  // Core splits on every ':' and so rejects passwords containing one; RFC 7617 splits at the first.
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
