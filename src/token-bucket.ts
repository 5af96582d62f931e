// A token bucket: `perSecond` tokens a second, holding at most one second's worth, so bursts up to
// the rate pass and a steady rate above it does not. Two numbers and a clock read: cheap enough for
// every call (the call rate limits) and every WebSocket ping (the ping limit).

export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly perSecond: number,
    now: number,
  ) {
    this.tokens = perSecond;
    this.last = now;
  }

  /**
   * Takes one call's token at `now` (ms); false when none is left. `perSecond` replaces the rate the
   * bucket was made with (a limit reloaded on SIGHUP applies to buckets already made).
   */
  take(now: number, perSecond = this.perSecond): boolean {
    this.tokens = Math.min(perSecond, this.tokens + ((now - this.last) * perSecond) / 1000);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
