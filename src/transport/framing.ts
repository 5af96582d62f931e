// Request framing checks uWebSockets.js leaves to us. RFC 9112 §6.3: a request whose Content-Length
// headers disagree (or one that is not a number) must be refused, since a proxy in front that reads
// the other value would see a different request boundary (request smuggling). uWS frames the body
// by the first Content-Length it sees; `getHeader` shows only that one, so the headers are walked.
// (A request with both Content-Length and Transfer-Encoding is closed by uWS itself before any
// handler runs.)
import type { HttpRequest } from './uws.js';

const DIGITS = /^\d+$/;

/** Why the request's framing headers are refused, or undefined when they are sound. */
export function framingFault(req: HttpRequest): string | undefined {
  let length: string | undefined;
  let fault: string | undefined;
  req.forEach((key, value) => {
    if (fault !== undefined || key !== 'content-length') return;
    const v = value.trim();
    if (!DIGITS.test(v)) fault = 'Content-Length is not a number';
    else if (length !== undefined && v !== length) fault = 'conflicting Content-Length headers';
    length = v;
  });
  return fault;
}
