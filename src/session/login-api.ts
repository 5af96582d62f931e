// login_api handlers (api.cpp:56-375 for the current variant, api.cpp@6.0.2 for the legacy one).
// They run in the front end because they read and change session state; each returns the JSON value
// of its result.

import { applicationOptions } from '../config.js';
import { ASSERT, RpcError, assertError, legacyGetterAssert } from '../errors.js';
import { asString } from '../api/params.js';
import type { Session } from './session.js';

type LoginHandler = (s: Session, args: unknown[]) => unknown;

const where = (method: string) => ({ file: 'login_api', method });

/** Getter names whose API set needs a plugin this node does not run, and Core's message for it. */
const PLUGIN_MISSING: Readonly<Record<string, string>> = {
  custom_operations: ASSERT.CUSTOM_OPERATIONS_PLUGIN,
};

function currentGetter(setName: string): LoginHandler {
  return (s) => {
    if (!s.allowed.includes(`${setName}_api`)) throw new RpcError(assertError(ASSERT.ACCESS_DENIED, {}, where(setName)));
    const plugin = PLUGIN_MISSING[setName];
    if (plugin) throw new RpcError(assertError(plugin, {}, where(setName)));
    return s.register(setName);
  };
}

function legacyGetter(setName: string): LoginHandler {
  return (s) => {
    // Legacy getters assert that the API object exists, i.e. that a login enabled it.
    if (!s.allowed.includes(`${setName}_api`) || PLUGIN_MISSING[setName]) {
      throw new RpcError(assertError(legacyGetterAssert(`${setName}_api`), {}, where(setName)));
    }
    return s.register(setName);
  };
}

const optionalString = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : asString(v));

const GETTERS = ['block', 'network_broadcast', 'database', 'history', 'network_node', 'crypto', 'asset', 'orders', 'debug'] as const;

export const currentLoginHandlers: Readonly<Record<string, LoginHandler>> = {
  login(s, [u, p]) {
    const user = optionalString(u);
    const password = optionalString(p);
    // Both missing: the login API's own ID, hard-coded for backward compatibility.
    if (user === undefined && password === undefined) return 1;
    if (user === undefined || password === undefined) throw new RpcError(assertError(ASSERT.LOGIN_BOTH_REQUIRED, {}, where('login')));
    return s.login(user, password);
  },
  logout(s) {
    s.allowed = [];
    return false;
  },
  get_info(s) {
    return s.deps.config.apiNodeInfo;
  },
  get_config(s) {
    if (s.allowed.length === 0) throw new RpcError(assertError(ASSERT.CONFIG_DENIED, {}, where('get_config')));
    return applicationOptions(s.deps.config);
  },
  get_available_api_sets(s) {
    return s.allowed;
  },
  ...Object.fromEntries(GETTERS.map((g) => [g, currentGetter(g)])),
  custom_operations: currentGetter('custom_operations'),
};

export const legacyLoginHandlers: Readonly<Record<string, LoginHandler>> = {
  login(s, [u, p]) {
    const user = asString(u);
    const password = asString(p);
    const before = s.allowed;
    if (!s.login(user, password)) {
      // A failed legacy login revokes nothing.
      s.allowed = before;
      return false;
    }
    // Success enables each allowed set anew (re-creating its API object), on top of what was enabled.
    const granted = s.allowed;
    for (const name of granted) s.getterIds.delete(name.replace(/_api$/, ''));
    s.allowed = [...new Set([...before, ...granted])].sort();
    return true;
  },
  ...Object.fromEntries(GETTERS.map((g) => [g, legacyGetter(g)])),
};

/** dummy_api: what ID 0 answers when the session may not use the database API. */
export const dummyHandlers: Readonly<Record<string, LoginHandler>> = {
  dummy: () => false,
};
