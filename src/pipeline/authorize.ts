// The authorize layer: the request meets the connection's API-ID table and login state. The API ID
// (or named API) must be one this session was handed, the method must exist in that set, and the
// arguments must be enough; then the call has a target. Login getters are what grant IDs, so a
// session reaches only the sets its login allowed.
import { route, type RouteContext } from '../dispatch/route.js';
import type { Call, Layer } from './types.js';
import { failure } from './failure.js';
import type { FrontRunner } from './run.js';

export function authorize(loginVariant: 'current' | 'legacy', front: FrontRunner): Layer {
  const ctx: RouteContext<Call> = {
    loginVariant,
    // The call form's named API: the login getter runs now, with no arguments, as in fc.
    callLogin: (login, call) => front.callNow(call, login),
  };
  return (call, next) => {
    try {
      call.target = route(call.request!, call.session.apis, call, ctx);
    } catch (err) {
      call.outcome = { kind: 'error', error: failure(call, err) };
      return;
    }
    return next(call);
  };
}
