// How the load generator tells replies apart without decoding them: a history page is 30 KB, and
// turning each into a string and scanning all of it cost the generator a sixth of its thread
// (its CPU profile in a ws-history run), time it then took from the servers on the same CPUs.
// Both checks look only at a reply's first bytes (or as far as its "result" key), in place.

/** The prefix of a subscription notice, which answers no request. */
const NOTICE = Buffer.from('{"method":"notice"');

/** Whether a frame is a notice rather than a reply. */
export function isNotice(frame: Buffer): boolean {
  return frame.length >= NOTICE.length && NOTICE.compare(frame, 0, NOTICE.length) === 0;
}

/**
 * Whether a JSON-RPC reply is an error: it has no "result" key, or an "error" key comes before it.
 * Only the bytes before the first "result" key are searched (backwards from it), so a large result
 * costs no more than a small one, and an "error" inside a result (a memo's text, say) is not taken
 * for the reply's.
 */
export function isErrorReply(reply: Buffer | string): boolean {
  const r = reply.indexOf('"result":');
  return r < 0 || reply.lastIndexOf('"error":', r) >= 0;
}
