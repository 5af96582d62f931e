// One login attempt, the same for the login API's `login` and for Basic credentials at connect:
// throttled (login-throttle.ts), checked as Core checks it (access.ts), and held to the user's
// `max_connections` from the access file.
import { RPC, RpcError, limitError } from '../errors.js';
import { grantFor, regrant, type AccessPolicy, type Grant } from '../access.js';
import type { Logger } from '../log.js';
import type { Session } from '../session/session.js';
import { pause, type LoginThrottle } from './login-throttle.js';

/** How credentials came: the login API's `login`, or an `Authorization: Basic` header. */
export type LoginVia = 'login' | 'basic';

export interface LoginServices {
  /** the access rules in force; replaced whole when the access file is reloaded */
  policy: AccessPolicy;
  readonly throttle: LoginThrottle;
  readonly users: UserSessions;
  /** failed logins by how they came (the node's metrics read them); absent in tests that do not count */
  readonly failures?: Record<LoginVia, number>;
}

/** Who is logging in: the client's address, and the connection's logger. */
export interface LoginClient {
  readonly address: string;
  readonly log: Logger;
}

/** The most of a user name a log line carries: names come from clients, and may be long. */
const LOGGED_NAME_CHARS = 64;

/** Checks `user`/`password` after the wait the throttle asks for; counts and logs a failure. */
export async function attemptLogin(svc: LoginServices, client: LoginClient, via: LoginVia, user: string, password: string): Promise<Grant | undefined> {
  const delayMs = await svc.throttle.delayFor(client.address, user);
  if (delayMs > 0) {
    // Said before the wait, whatever the password: the line tells an operator that guessing is
    // being slowed, and tells nothing a client could see.
    client.log.info({ address: client.address, via, user: user.slice(0, LOGGED_NAME_CHARS), delayMs }, 'login attempt delayed');
    await pause(delayMs);
  }
  const grant = grantFor(svc.policy, user, password);
  if (!grant) {
    await svc.throttle.failed(client.address, user);
    loginFailed(svc, client, via, user);
  }
  return grant;
}

/**
 * A failed login, counted and logged: one line with the address and the user name (cut short),
 * never the password or the header (`user` is undefined when a Basic header could not be decoded).
 */
export function loginFailed(svc: LoginServices, client: LoginClient, via: LoginVia, user: string | undefined): void {
  if (svc.failures) svc.failures[via]++;
  client.log.info({ address: client.address, via, user: user === undefined ? undefined : user.slice(0, LOGGED_NAME_CHARS) }, 'login failed');
}

/**
 * Sessions logged in per access entry (a listed user, or '*' for everyone the wildcard entry lets
 * in), for the entry's `max_connections`. A session counts for the entry it last logged in with,
 * until it logs in again, logs out or closes. Keyed by entry, not by the name given, so that names
 * invented under '*' cannot grow it.
 */
export class UserSessions {
  private readonly counts = new Map<string, number>();
  private readonly of = new WeakMap<Session, string>();

  /** Counts `s` under `user`, unless that would pass `max`; the session's previous name is released. */
  enter(s: Session, user: string, max: number | undefined): boolean {
    const before = this.of.get(s);
    const n = this.counts.get(user) ?? 0;
    if (max !== undefined && before !== user && n >= max) return false;
    this.leave(s);
    this.counts.set(user, (this.counts.get(user) ?? 0) + 1);
    if (before === undefined) s.onClose(() => this.leave(s));
    this.of.set(s, user);
    return true;
  }

  leave(s: Session): void {
    const user = this.of.get(s);
    if (user === undefined) return;
    this.of.delete(s);
    const n = (this.counts.get(user) ?? 1) - 1;
    if (n <= 0) this.counts.delete(user);
    else this.counts.set(user, n);
  }

  count(user: string): number {
    return this.counts.get(user) ?? 0;
  }
}

/**
 * Makes a successful login the session's: its user name and limits (the API sets are the caller's,
 * as the two login variants grant them differently). Throws -32014 when the user is at its
 * `max_connections`.
 */
export function takeLogin(svc: LoginServices, s: Session, grant: Grant): void {
  const max = grant.limits.maxConnections;
  // Only entries with a limit are counted: every anonymous HTTP request logs in, and need not pay for it.
  if (max === undefined) svc.users.leave(s);
  else if (!svc.users.enter(s, grant.entry, max)) throw new RpcError(limitError(RPC.TOO_MANY_CONNECTIONS, `${max} for this user: max_connections`));
  s.entry = grant.entry;
  s.limits = grant.limits;
}

const NONE = Object.freeze({});

/** A failed login or a logout: the session is nobody's. */
export function dropLogin(svc: LoginServices, s: Session): void {
  svc.users.leave(s);
  s.entry = undefined;
  s.limits = NONE;
}

/**
 * Records the logins the session's API sets come from (none after a failed login or a logout), and
 * that they were checked under the rules in force now.
 */
export function noteLogins(svc: LoginServices, s: Session, logins: Session['logins']): void {
  s.logins = logins;
  s.checkedUnder = svc.policy;
}

/**
 * The API sets the session may use, as an accessor call (a login getter, get_config,
 * get_available_api_sets) must see them: when the access file was reloaded since its logins were
 * checked, they are checked against the new rules first (access.ts regrant). A user whose entry is
 * gone or whose password changed loses what that login gave; one whose entry lists other sets gets
 * those, and its entry's new limits. The IDs the session holds are not touched: as after a logout,
 * an ID already handed out stays usable (reference: login_api, "already allocated API set IDs are
 * still accessible").
 */
export function allowedNow(svc: LoginServices, s: Session): readonly string[] {
  if (s.checkedUnder === svc.policy) return s.allowed;
  const before = s.allowed;
  const logins: { user: string; grant: Grant }[] = [];
  let lastGrant: Grant | undefined;
  for (const l of s.logins) {
    lastGrant = regrant(svc.policy, l.user, l.grant);
    if (lastGrant) logins.push({ user: l.user, grant: lastGrant });
  }
  if (s.logins.length > 0) {
    // The session's limits are its last login's; its place under max_connections stays as counted.
    if (lastGrant) s.limits = lastGrant.limits;
    else dropLogin(svc, s);
    s.allowed = logins.length === 1 ? logins[0]!.grant.allowed : [...new Set(logins.flatMap((l) => l.grant.allowed))].sort();
  }
  noteLogins(svc, s, logins);
  if (s.allowed.join() !== before.join()) s.log.info({ before, allowed: s.allowed }, 'api-access file reloaded: this session\'s API sets changed');
  return s.allowed;
}
