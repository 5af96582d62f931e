// The one table of error codes and messages, and the wire shape every error takes.
//
// Two families, as in bitshares-fc (reference §3.5):
//  - protocol errors: JSON-RPC codes (-32xxx) with fixed messages and, mostly, no `data`;
//  - execution errors: an fc exception turned into `{code, message: "Execution error: " + to_string(), data}`.
//    `data` keeps fc's shape (`code`, `name`, `message`, `stack` of log messages) because python-bitshares
//    reads `data.stack[0].format` and `.data`; but the log context never carries a server path, line or trace.
//
// Errors cross worker threads as plain `WireError` objects (an Error subclass loses its fields through
// postMessage), so code compares `code`, never `instanceof`. Imports only the leaf module of fc's time format.

import { fcTime } from './protocol/fc-time.js';

/** One fc log message, as fc writes it inside `data.stack`. */
export interface WireLogMessage {
  context: {
    /** 'warn' for the entries fc's FC_RETHROW_EXCEPTIONS( warn, … ) adds */
    level: 'error' | 'warn';
    file: string;
    line: number;
    method: string;
    hostname: string;
    thread_name: string;
    timestamp: string;
  };
  format: string;
  data: Record<string, unknown>;
}

export interface WireErrorData {
  code: number;
  name: string;
  message: string;
  stack: WireLogMessage[];
}

/** The `error` member of a JSON-RPC reply. */
export interface WireError {
  code: number;
  message: string;
  data?: WireErrorData;
}

/** JSON-RPC protocol errors. Messages are the reference node's, word for word, where it has one. */
export const RPC = {
  PARSE_ERROR: { code: -32700, message: 'Invalid JSON message' },
  BATCH_NOT_SUPPORTED: { code: -32600, message: 'Batch requests not supported' },
  INVALID_REQUEST: { code: -32600, message: 'Invalid JSON request' },
  INVALID_ID: { code: -32600, message: 'Invalid id' },
  INVALID_METHOD: { code: -32600, message: 'Missing or invalid method' },
  UNSUPPORTED_VERSION: { code: -32600, message: 'Unsupported JSON-RPC version' },
  NAMED_PARAMS: { code: -32602, message: 'Named parameters not supported' },
  INVALID_PARAMS: { code: -32600, message: 'Invalid parameters' },
  MISSING_ID: { code: -32600, message: 'Missing or invalid id' },
  MISSING_METHOD: { code: -32600, message: 'Missing method or result or error' },
  METHOD_NOT_FOUND: { code: -32601, message: 'Method not found' },
  INTERNAL: { code: -32603, message: 'Internal error' },
  // Ours (jsonrpsee's numbering); the reference node has no such limits.
  REQUEST_TOO_BIG: { code: -32007, message: 'Request is too big' },
  TOO_DEEP: { code: -32700, message: 'Invalid JSON message: nesting too deep' },
  SERVER_BUSY: { code: -32009, message: 'Server is busy: too many calls in flight on this connection' },
  NODE_BUSY: { code: -32010, message: 'Server is busy: too many calls in flight on this node' },
  CALL_CANCELLED: { code: -32011, message: 'Call cancelled: its connection closed' },
  REPLY_TOO_BIG: { code: -32008, message: 'Response is too big' },
  BUDGET_EXCEEDED: { code: -32012, message: 'Call exceeded its time budget' },
  RATE_LIMITED: { code: -32013, message: 'Too many calls' },
  TOO_MANY_CONNECTIONS: { code: -32014, message: 'Too many connections' },
  BLOCKS_NOT_WRITABLE: { code: -32015, message: 'Transactions are not accepted now: the node cannot write blocks' },
  SHUTTING_DOWN: { code: -32016, message: 'Server is shutting down' },
  UPSTREAM_UNAVAILABLE: { code: -32017, message: 'Transactions are not accepted now: the upstream node this node follows cannot be reached' },
  HTTP_METHOD: { code: -32600, message: 'Invalid JSON request: use POST with a JSON-RPC body' },
  HTTP_FRAMING: { code: -32600, message: 'Invalid HTTP request: its Content-Length headers conflict or are not a number' },
} as const satisfies Record<string, { code: number; message: string }>;

/** fc exception kinds (fc `exception.hpp`): code, reflected name, and `what()`. */
export const FC = {
  unspecified: { code: 0, name: 'exception', what: 'unspecified' },
  parse: { code: 4, name: 'parse_error_exception', what: 'Parse Error' },
  invalidArg: { code: 5, name: 'invalid_arg_exception', what: 'Invalid Argument' },
  badCast: { code: 7, name: 'bad_cast_exception', what: 'Bad Cast' },
  outOfRange: { code: 8, name: 'out_of_range_exception', what: 'Out of Range' },
  assert: { code: 10, name: 'assert_exception', what: 'Assert Exception' },
  methodNotFound: { code: 22, name: 'method_not_found_exception', what: 'Method Not Found' },
} as const satisfies Record<string, { code: number; name: string; what: string }>;

/** BitShares Core's transaction exceptions (protocol/exceptions.hpp): code, name, what(). */
export const TX_EXCEPTIONS = {
  missingActiveAuth: { code: 4010001, name: 'tx_missing_active_auth', what: 'missing required active authority' },
  missingOwnerAuth: { code: 4010002, name: 'tx_missing_owner_auth', what: 'missing required owner authority' },
  missingOtherAuth: { code: 4010003, name: 'tx_missing_other_auth', what: 'missing required other authority' },
  irrelevantSig: { code: 4010004, name: 'tx_irrelevant_sig', what: 'irrelevant signature included' },
  duplicateSig: { code: 4010005, name: 'tx_duplicate_sig', what: 'duplicate signature included' },
  invalidCommitteeApproval: { code: 4010006, name: 'invalid_committee_approval', what: 'committee account cannot directly approve transaction' },
} as const satisfies Record<string, { code: number; name: string; what: string }>;

export type FcKind = (typeof FC)[keyof typeof FC] | (typeof TX_EXCEPTIONS)[keyof typeof TX_EXCEPTIONS];

/**
 * Assertion texts, as `FC_ASSERT(TEST, msg)` formats them (`#TEST ": " msg`), so that a client that
 * matches on the reference's wording keeps working. `${name}` placeholders are filled from `data`.
 */
export const ASSERT = {
  ACCESS_DENIED: 'is_allowed: Access denied',
  CONFIG_DENIED: 'is_allowed: Access denied, please login',
  LOGIN_BOTH_REQUIRED: 'o_user.valid() && o_password.valid(): Must provide both user and password',
  CUSTOM_OPERATIONS_PLUGIN: 'plugin_enabled: The custom_operations plugin is not enabled',
  /** get_storage_info's own check (api.cpp), should a session hold the set without the getter */
  STORAGE_PLUGIN: 'plugin: The custom_operations plugin is not enabled',
  STORAGE_KEY_WITHOUT_CATALOG: '!key.valid(): Can not specify key if catalog is not specified',
  UNKNOWN_API_ID: '_local_apis.size() > api_id: ',
  CALL_SHAPE: 'args.size() == 3 && args[2].is_array(): ',
  TOO_FEW_ARGS: 'a0 != e || optional_args: too few arguments passed to method',
  LIMIT: 'limit <= configured_limit: limit can not be greater than ${configured_limit}',
  NO_SUCH_ACCOUNT: 'account_ptr: no such account',
  NO_SUCH_ASSET: 'asset_ptr: no such asset',
  ID_FIRST_DOT: 'first_dot != std::string::npos: Missing the first dot',
  ID_SECOND_DOT: 'second_dot != std::string::npos: Missing the second dot',
  ID_SPACE_PART: 'first_dot != 0: Missing the space part',
  ID_TYPE_PART: 'second_dot != first_dot+1: Missing the type part',
  ID_TYPE_MISMATCH:
    "fc::to_uint64( s.substr( 0, first_dot ) ) == SpaceID && fc::to_uint64( s.substr( first_dot+1, (second_dot-first_dot)-1 ) ) == TypeID: Space.Type.0 (${SpaceID}.${TypeID}.0) doesn't match expected value ${var}",
  /** object_id_type (an id of any space and type, as get_objects takes) */
  ID_SPACE_OVERFLOW: 'space_id <= graphene::db::object_id_type::one_byte_mask: space overflow',
  ID_TYPE_OVERFLOW: 'type_id <= graphene::db::object_id_type::one_byte_mask: type overflow',
  /** object_id<S,T>::validate() */
  ID_INSTANCE_OVERFLOW: '(instance.value >> instance_bits) == 0: instance overflow',
  /** object_id_type::reset() */
  ID_INSTANCE_OVERFLOW_UNTYPED: 'i >> instance_bits == 0: instance overflow',
  EXPECTED_ARRAY: 'is_array(): Expected an array, got ${type}',
  ENDPOINT: 'parse_endpoint(ep): Expected an endpoint of the form IP:port, got ${endpoint}',
  // The deposit feed (deposits_api), this node's own: worded as Core words its checks.
  FEED_CURSOR: 'is_valid_cursor(cursor): Invalid cursor ${cursor}: give null (from the head block on) or a cursor or next_cursor this API returned',
  FEED_NO_SUCH_ACCOUNT: 'account_ptr: no such account: ${account}',
  FEED_ACCOUNTS: 'accounts.size() <= max_transfer_accounts: Number of accounts in one call or subscription can not be greater than ${configured_limit} (--max-transfer-accounts)',
  FEED_SUBSCRIPTIONS:
    'subscriptions.size() < max_transfer_subscriptions_per_connection: Number of transfer subscriptions of one connection can not be greater than ${configured_limit} (--max-transfer-subscriptions-per-connection)',
} as const;

/** Legacy login API getters assert on the cached API object itself (`FC_ASSERT(_history_api)`). */
export const legacyGetterAssert = (setName: string): string => `_${setName}: `;

export const METHOD_NOT_FOUND_FORMAT = "No method with name '${name}'";

/** Fills fc's `${key}` placeholders, as `fc::format_string` does. */
export function formatFc(format: string, data: Record<string, unknown>): string {
  return format.replace(/\$\{([A-Za-z0-9_]+)\}/g, (whole, key: string) => {
    if (!(key in data)) return whole;
    const v = data[key];
    return typeof v === 'string' ? v : JSON.stringify(v);
  });
}

/**
 * An fc exception on the wire. `where` names the API set and method for the log context; it never
 * carries a file path or source line.
 */
export function fcError(
  kind: FcKind,
  format: string,
  data: Record<string, unknown> = {},
  where: { file?: string; method?: string } = {},
): WireError {
  const text = formatFc(format, data);
  return {
    code: kind.code,
    message: `Execution error: ${kind.what}: ${text}`,
    data: {
      code: kind.code,
      name: kind.name,
      message: kind.what,
      stack: [
        {
          context: {
            level: 'error',
            file: where.file ?? '',
            line: 0,
            method: where.method ?? '',
            hostname: '',
            thread_name: 'th_a',
            timestamp: fcTime(Date.now() / 1000),
          },
          format,
          data,
        },
      ],
    },
  };
}

export const assertError = (format: string, data: Record<string, unknown> = {}, where: { file?: string; method?: string } = {}): WireError =>
  fcError(FC.assert, format, data, where);

/** The reply to an unknown method: JSON-RPC -32601 with fc's method_not_found exception as data. */
export function methodNotFound(name: string, apiMethods: readonly string[], where: { file?: string } = {}): WireError {
  // fc's generic_api keeps `_by_name` in a std::map: the list is sorted by name, each with its index.
  const api = apiMethods.map((m, i) => [m, i] as [string, number]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const inner = fcError(FC.methodNotFound, METHOD_NOT_FOUND_FORMAT, { name, api }, { ...where, method: 'call' });
  return { code: RPC.METHOD_NOT_FOUND.code, message: RPC.METHOD_NOT_FOUND.message, data: inner.data! };
}

/** A protocol error without data. */
export const protocolError = (e: { code: number; message: string }): WireError => ({ code: e.code, message: e.message });

/** One of our limit errors, its message followed by the limit that was hit: "Response is too big (over 16777216 bytes: --max-reply-bytes)". */
export const limitError = (e: { code: number; message: string }, detail: string): WireError => ({ code: e.code, message: `${e.message} (${detail})` });

/** An Error that carries its wire form, for throwing inside handlers. Compare `wire.code`, not the class. */
export class RpcError extends Error {
  readonly wire: WireError;
  constructor(wire: WireError) {
    super(wire.message);
    this.wire = wire;
  }
}

/** Anything thrown inside a handler becomes a wire error; unknown failures become -32603 without details. */
export function toWireError(err: unknown): WireError {
  if (err instanceof RpcError) return err.wire;
  if (isWireError(err)) return err;
  return protocolError(RPC.INTERNAL);
}

export function isWireError(v: unknown): v is WireError {
  return typeof v === 'object' && v !== null && typeof (v as WireError).code === 'number' && typeof (v as WireError).message === 'string';
}

/** HTTP status for a reply carrying this error (reference §3.3), plus our two limits. */
export function httpStatusFor(err: WireError | undefined): number {
  if (!err) return 200;
  if (err.code === RPC.INTERNAL.code) return 500;
  if (err.code === RPC.REQUEST_TOO_BIG.code) return 413;
  if (err.code === RPC.SERVER_BUSY.code || err.code === RPC.NODE_BUSY.code || err.code === RPC.BUDGET_EXCEEDED.code || err.code === RPC.TOO_MANY_CONNECTIONS.code || err.code === RPC.BLOCKS_NOT_WRITABLE.code || err.code === RPC.SHUTTING_DOWN.code || err.code === RPC.UPSTREAM_UNAVAILABLE.code) return 503;
  if (err.code === RPC.REPLY_TOO_BIG.code) return 500;
  if (err.code === RPC.RATE_LIMITED.code) return 429;
  if (err.code <= -32600) return 400;
  return 200;
}
