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

  /** Takes one call's token at `now` (ms); false when none is left. */
  take(now: number): boolean {
    this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.last) * this.perSecond) / 1000);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
