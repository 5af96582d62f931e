// Waiting, bounded, for what a test cannot be told of: a state that reaches another process or a
// client a little after the event the test saw.

/** Resolves once `check` holds, looking every 20 ms; an error naming `what` after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
