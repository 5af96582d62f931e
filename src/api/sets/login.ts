// login_api (reference §1.1, §1.4). Runs in the front end: it reads and changes session state.
import { defineApiSet, method, opt, req } from '../types.js';

const getters = {
  block: method(),
  network_broadcast: method(),
  database: method(),
  history: method(),
  network_node: method(),
  crypto: method(),
  asset: method(),
  orders: method(),
  debug: method(),
} as const;

/** BitShares Core >= 6.1. `dummy` and `is_database_api_allowed` are not reflected, so not listed. */
export const loginApiCurrent = defineApiSet({
  name: 'login',
  accessName: 'login_api',
  runsIn: 'front',
  methods: {
    login: method(opt('user'), opt('password')),
    logout: method(),
    get_info: method(),
    get_config: method(),
    get_available_api_sets: method(),
    ...getters,
    custom_operations: method(),
    // This node's own set (the deposit feed); Core has no such getter.
    deposits: method(),
  },
});

/** BitShares Core <= 6.0: `login(user, password)` with both required, and only the getters. */
export const loginApiLegacy = defineApiSet({
  name: 'login',
  accessName: 'login_api',
  runsIn: 'front',
  methods: {
    login: method(req('user'), req('password')),
    ...getters,
  },
});

/** The set at ID 0 when the session may not use the database API (api.hpp dummy_api). */
export const dummyApi = defineApiSet({
  name: 'dummy',
  accessName: '',
  runsIn: 'front',
  methods: { dummy: method() },
});
