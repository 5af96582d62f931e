// Login throttling: failed logins (the login API's `login`, and Basic credentials on HTTP requests
// and WebSocket upgrades alike) are counted per client address and per user name over a window; past
// --login-failures-before-delay failures, every further attempt from that address or for that name
// waits before its password is even checked, twice as long each time, up to --login-delay-max-ms.
// Guessing then costs time where it happens, while other clients are not slowed (the wait is a timer,
// and it holds back only that connection's replies).
//
// Whether a user exists is not revealed: names are counted whether or not the access file lists them,
// and a listed name waits exactly as an unlisted one does. The counters are rate-limiter-flexible's
// (windowed, expiring); user names are counted in USER_BUCKETS hashed buckets, and IPv6 addresses by
// their /64, so that an attacker inventing names or addresses cannot grow them without bound.
import { createHash } from 'node:crypto';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { Config } from '../config.js';
import { LOGIN_FAILURE_WINDOW_S, LOGIN_FIRST_DELAY_MS, USER_BUCKETS } from '../tuning.js';

export interface LoginThrottle {
  /** ms an attempt from `address` as `user` waits before it is checked (0 while under the free failures). */
  delayFor(address: string, user: string): Promise<number>;
  /** Counts a failed attempt. */
  failed(address: string, user: string): Promise<void>;
}

/** An IPv6 address's /64 (one subscriber's usual allocation); IPv4 addresses as they are. */
const addressKey = (address: string): string => (address.includes(':') ? `6:${address.split(':').slice(0, 4).join(':')}` : `4:${address}`);
const userKey = (user: string): string => String(createHash('sha256').update(user, 'utf8').digest().readUInt32BE(0) % USER_BUCKETS);

export function loginThrottle(config: Pick<Config, 'loginFailuresBeforeDelay' | 'loginDelayMaxMs'>): LoginThrottle {
  // Used as windowed counters: the points are never exhausted, `penalty` counts, `get` reads.
  const counter = () => new RateLimiterMemory({ points: Number.MAX_SAFE_INTEGER, duration: LOGIN_FAILURE_WINDOW_S });
  const byAddress = counter();
  const byUser = counter();
  // The options are read at each attempt: they reload on SIGHUP.
  return {
    async delayFor(address, user) {
      const [a, u] = await Promise.all([byAddress.get(addressKey(address)), byUser.get(userKey(user))]);
      const failures = Math.max(a?.consumedPoints ?? 0, u?.consumedPoints ?? 0);
      const free = config.loginFailuresBeforeDelay;
      if (failures < free) return 0;
      return Math.min(config.loginDelayMaxMs, LOGIN_FIRST_DELAY_MS * 2 ** Math.min(30, failures - free));
    },
    async failed(address, user) {
      await Promise.all([byAddress.penalty(addressKey(address), 1), byUser.penalty(userKey(user), 1)]);
    },
  };
}

/** Waits `ms` (a timer: nothing else waits with it). */
export const pause = (ms: number): Promise<void> => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());
