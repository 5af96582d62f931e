// The limit-rate layer: calls per second, per WebSocket connection (--max-calls-per-second) and per
// access entry over all its sessions (the entry's `max_calls_per_second` in the access file). A call
// over either gets -32013 at once, in its place in the reply order; the connection stays up.
//
// Token buckets written here rather than rate-limiter-flexible (which the login throttle uses): this
// runs for every call on the hot path, where the library's promise per call would cost more than
// the whole check; a bucket is two numbers and a clock read. A bucket holds one second of calls, so
// bursts up to the rate pass and a steady rate above it does not.
import type { Config } from '../config.js';
import { RPC, limitError } from '../errors.js';
import type { Session } from '../session/session.js';
import type { Layer } from './types.js';
import { TokenBucket } from '../token-bucket.js';


export function limitRate(config: Pick<Config, 'maxCallsPerSecond'>): Layer {
  const perConnection = new WeakMap<Session, TokenBucket>();
  // By access entry ('*' or a listed user): bounded by the access file, whatever names clients invent.
  const perEntry = new Map<string, TokenBucket>();
  // The refusal, made once per rate: the rate is read at each call (it reloads on SIGHUP).
  let over = { rate: NaN, error: limitError(RPC.RATE_LIMITED, '') };
  const connectionOver = (rate: number) => (over.rate === rate ? over.error : (over = { rate, error: limitError(RPC.RATE_LIMITED, `${rate} per second on this connection: --max-calls-per-second`) }).error);
  return (call, next) => {
    const s = call.session;
    const now = performance.now();
    const rate = config.maxCallsPerSecond;
    // HTTP sessions last one request: only WebSocket connections have a rate of their own.
    if (rate > 0 && s.transport === 'ws') {
      let bucket = perConnection.get(s);
      if (!bucket) perConnection.set(s, (bucket = new TokenBucket(rate, now)));
      if (!bucket.take(now, rate)) {
        call.outcome = { kind: 'error', error: connectionOver(rate) };
        return;
      }
    }
    const userRate = s.limits.maxCallsPerSecond;
    if (userRate !== undefined && s.entry !== undefined) {
      let bucket = perEntry.get(s.entry);
      if (!bucket) perEntry.set(s.entry, (bucket = new TokenBucket(userRate, now)));
      if (!bucket.take(now)) {
        call.outcome = { kind: 'error', error: limitError(RPC.RATE_LIMITED, `${userRate} per second for this user: max_calls_per_second`) };
        call.limit = 'max_calls_per_second';
        return;
      }
    }
    return next(call);
  };
}
