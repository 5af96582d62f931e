// Number and time formats exactly as bitshares-fc writes them in RPC replies
// (`json::stringify_large_ints_and_doubles`, reference §5.4). Applied per value when an object is
// built, so stored objects are already in their served form.

import { fcTime } from '../../protocol/fc-time.js';

// The integer rules live with the wire protocol, which needs them for request ids too.
export { echoNumber, i64, u64 } from '../../protocol/fc-numbers.js';
// So does the time format: the error table writes it into every fc exception's log context.
export { fcTime, parseFcTime } from '../../protocol/fc-time.js';

/** `time_point_sec::maximum()`, the membership expiry of lifetime members. */
export const TIME_MAX = fcTime(0xffffffff);
export const TIME_EPOCH = fcTime(0);

/** The all-zero public key, as fc prints `public_key_type()` with the BTS prefix (public-key.ts' nullPublicKey gives the chain's). */
export const NULL_PUBLIC_KEY = 'BTS1111111111111111111111111111111114T1Anm';
