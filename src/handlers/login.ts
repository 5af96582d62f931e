// login_api handlers (api.cpp:56-375 for the current variant, api.cpp@6.0.2 for the legacy one), and
// the dummy set. They run in the front end because they read and change session state; each returns
// the JSON value of its result.
import path from 'node:path';
import { applicationOptions, type Config } from '../config.js';
import { ASSERT, RpcError, assertError, legacyGetterAssert } from '../errors.js';
import { asString } from '../api/params.js';
import type { loginApiCurrent, loginApiLegacy, dummyApi } from '../api/sets/login.js';
import type { HandlerTable } from '../api/types.js';
import { UNKEPT } from '../api/unkept.js';
import type { Session } from '../session/session.js';
import type { FrontHandler, Services } from './types.js';
import { allowedNow, attemptLogin, dropLogin, noteLogins, takeLogin } from './login-flow.js';

/**
 * Said in get_config after Core's application options: the calls that answer as Core does on a
 * chain without such objects, because this chain does not keep them (src/api/unkept.ts). A client
 * or operator can tell an empty answer that means "none" from one that means "not kept here".
 */
const ANSWERED_WITHOUT_DATA = Object.fromEntries(Object.entries(UNKEPT).map(([set, methods]) => [set, Object.keys(methods)]));

const where = (method: string) => ({ file: 'login_api', method });

/**
 * Getter names whose API set needs an optional plugin, Core's message when it is not enabled, and
 * whether this node runs it.
 */
const PLUGINS: Readonly<Record<string, { message: string; enabled: (c: Config) => boolean }>> = {
  custom_operations: { message: ASSERT.CUSTOM_OPERATIONS_PLUGIN, enabled: (c) => c.customOperationsPlugin },
};

const pluginMissing = (setName: string, config: Config): string | undefined => {
  const p = PLUGINS[setName];
  return p && !p.enabled(config) ? p.message : undefined;
};

/** The sets each connection has been told are refused, so that a client that asks again and again is logged once. */
const refusalsLogged = new WeakMap<Session, Set<string>>();

/**
 * A refused API set, logged with what would grant it. The reply stays Core's bare "Access denied"
 * (its message and fc data are what clients and the transcripts compare), so the hint for the
 * operator is this log line: the set to grant, the access entry the connection is under, and the
 * access file (--api-access) to grant it in.
 */
function logRefusal(s: Session, services: Services, setName: string): void {
  let logged = refusalsLogged.get(s);
  if (!logged) refusalsLogged.set(s, (logged = new Set()));
  if (logged.has(setName)) return;
  logged.add(setName);
  const file = services.config.apiAccess;
  // The entry is the access file's user the connection is under ('*' for the wildcard); the file is
  // where to grant the set: the one in force, or none yet (every user then gets the public sets).
  s.log.info(
    { api: `${setName}_api`, entry: s.entry?.slice(0, 64), apiAccess: file === null ? null : path.resolve(file) },
    'API set refused: to serve it, grant it to this entry in the access file (--api-access)',
  );
}

function currentGetter(setName: string): FrontHandler {
  return ({ session: s, services }) => {
    if (!allowedNow(services.login, s).includes(`${setName}_api`)) {
      logRefusal(s, services, setName);
      throw new RpcError(assertError(ASSERT.ACCESS_DENIED, {}, where(setName)));
    }
    const plugin = pluginMissing(setName, services.config);
    if (plugin) throw new RpcError(assertError(plugin, {}, where(setName)));
    return s.register(setName);
  };
}

function legacyGetter(setName: string): FrontHandler {
  return ({ session: s, services }) => {
    // Legacy getters assert that the API object exists, i.e. that a login enabled it.
    if (!allowedNow(services.login, s).includes(`${setName}_api`)) {
      logRefusal(s, services, setName);
      throw new RpcError(assertError(legacyGetterAssert(`${setName}_api`), {}, where(setName)));
    }
    return s.register(setName);
  };
}

const optionalString = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : asString(v));

const getters = {
  block: currentGetter('block'),
  network_broadcast: currentGetter('network_broadcast'),
  database: currentGetter('database'),
  history: currentGetter('history'),
  network_node: currentGetter('network_node'),
  crypto: currentGetter('crypto'),
  asset: currentGetter('asset'),
  orders: currentGetter('orders'),
  debug: currentGetter('debug'),
};

export const currentLoginHandlers = {
  login(call, [u, p]) {
    const user = optionalString(u);
    const password = optionalString(p);
    // Both missing: the login API's own ID, hard-coded for backward compatibility.
    if (user === undefined && password === undefined) return 1;
    if (user === undefined || password === undefined) throw new RpcError(assertError(ASSERT.LOGIN_BOTH_REQUIRED, {}, where('login')));
    const { session, services } = call;
    // Held: the connection's next requests run once this login has changed the session.
    return session.holding(
      attemptLogin(services.login, session, 'login', user, password).then((grant) => {
        // A failed login revokes what the session had.
        session.allowed = [];
        dropLogin(services.login, session);
        noteLogins(services.login, session, []);
        if (!grant) return false;
        takeLogin(services.login, session, grant);
        session.allowed = grant.allowed;
        noteLogins(services.login, session, [{ user, grant }]);
        return true;
      }),
    );
  },
  logout({ session, services }) {
    session.allowed = [];
    dropLogin(services.login, session);
    noteLogins(services.login, session, []);
    return false;
  },
  get_info({ services }) {
    return services.config.apiNodeInfo;
  },
  get_config({ session, services }) {
    if (allowedNow(services.login, session).length === 0) throw new RpcError(assertError(ASSERT.CONFIG_DENIED, {}, where('get_config')));
    const c = services.config;
    // Core's options first, in its order; then this node's own limits, which Core does not have.
    return {
      ...applicationOptions(c),
      max_ids_per_call: c.maxIdsPerCall,
      max_reply_bytes: c.maxReplyBytes,
      call_budget_ms: c.callBudgetMs,
      max_subscribed_objects_per_connection: c.maxSubscribedObjectsPerConnection,
      max_market_subscriptions_per_connection: c.maxMarketSubscriptionsPerConnection,
      calls_answered_without_data: ANSWERED_WITHOUT_DATA,
    };
  },
  get_available_api_sets({ session, services }) {
    return allowedNow(services.login, session);
  },
  ...getters,
  custom_operations: currentGetter('custom_operations'),
  deposits: currentGetter('deposits'),
} satisfies HandlerTable<typeof loginApiCurrent, 'front', FrontHandler>;

export const legacyLoginHandlers = {
  login({ session: s, services }, [u, p]) {
    const user = asString(u);
    const password = asString(p);
    return s.holding(
      attemptLogin(services.login, s, 'login', user, password).then((grant) => {
        // A failed legacy login revokes nothing.
        if (!grant) return false;
        // What earlier logins gave, checked against the rules in force if the access file was reloaded since.
        const before = allowedNow(services.login, s);
        takeLogin(services.login, s, grant);
        // Success enables each allowed set anew (re-creating its API object), on top of what was enabled.
        for (const name of grant.allowed) s.getterIds.delete(name.replace(/_api$/, ''));
        s.allowed = [...new Set([...before, ...grant.allowed])].sort();
        noteLogins(services.login, s, [...s.logins, { user, grant }]);
        return true;
      }),
    );
  },
  block: legacyGetter('block'),
  network_broadcast: legacyGetter('network_broadcast'),
  database: legacyGetter('database'),
  history: legacyGetter('history'),
  network_node: legacyGetter('network_node'),
  crypto: legacyGetter('crypto'),
  asset: legacyGetter('asset'),
  orders: legacyGetter('orders'),
  debug: legacyGetter('debug'),
} satisfies HandlerTable<typeof loginApiLegacy, 'front', FrontHandler>;

/** dummy_api: what ID 0 answers when the session may not use the database API. */
export const dummyHandlers = {
  dummy: () => false,
} satisfies HandlerTable<typeof dummyApi, 'front', FrontHandler>;
