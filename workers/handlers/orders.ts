// orders_api handlers. The set reads the grouped_orders plugin's data, and this node has no such
// plugin: both calls fail where Core's do without it, in application::get_plugin<T>
// (application.hpp: FC_ASSERT "Unable to load plugin"), after their arguments and limit are checked.
import { ordersApi } from '../../src/api/sets/orders.js';
import { ASSERT, FC, RpcError, assertError, fcError } from '../../src/errors.js';
import { asString, asUint32, asUint64 } from '../../src/api/params.js';
import type { HandlersFor } from './types.js';

const FILE = 'orders_api';
const NO_PLUGIN = "result != std::shared_ptr<PluginType>(): Unable to load plugin '${p}'";

const noPlugin = (method: string): RpcError => new RpcError(assertError(NO_PLUGIN, { p: 'grouped_orders' }, { file: FILE, method }));

/** fc's variant type names, as `variant::get_object()` reports a wrong one. */
const variantType = (v: unknown): string =>
  Array.isArray(v) ? 'array_type' : typeof v === 'string' ? 'string_type' : typeof v === 'boolean' ? 'bool_type' : typeof v === 'number' && !Number.isInteger(v) ? 'double_type' : typeof v === 'number' && v < 0 ? 'int64_type' : 'uint64_type';

export const ordersHandlers = {
  get_tracked_groups() {
    throw noPlugin('get_tracked_groups');
  },

  get_grouped_limit_orders(ctx, [base, quote, group, start, limit]) {
    asString(base);
    asString(quote);
    asUint64(group);
    // optional<price>: null is "not set"; anything else must be an object (a price's fields default).
    if (start !== null && start !== undefined && (typeof start !== 'object' || Array.isArray(start))) {
      throw new RpcError(fcError(FC.badCast, 'Invalid cast from ${type} to Object', { type: variantType(start) }, { file: FILE, method: 'get_grouped_limit_orders' }));
    }
    const n = asUint32(limit);
    const configured = ctx.config.apiLimits.api_limit_get_grouped_limit_orders;
    if (n > configured) throw new RpcError(assertError(ASSERT.LIMIT, { configured_limit: configured }, { file: FILE, method: 'get_grouped_limit_orders' }));
    throw noPlugin('get_grouped_limit_orders');
  },
} satisfies HandlersFor<typeof ordersApi>;
