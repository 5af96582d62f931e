// debug_api handlers (debug_witness plugin): produce blocks on demand for tests and benchmarks.
import { RpcError, assertError } from '../errors.js';
import { asString, asUint32 } from '../api/params.js';
import { privateKeyFromWif, publicKeyOf } from '../chain/crypto/keys.js';
import type { debugApi } from '../api/sets/debug.js';
import type { HandlerTable } from '../api/types.js';
import type { FrontHandler } from './types.js';

const where = (method: string) => ({ file: 'debug_api', method });
const unsupported = (method: string): FrontHandler => () => {
  throw new RpcError(assertError('false: ${method} is not supported by this node', { method }, where(method)));
};

export const debugHandlers = {
  async debug_generate_blocks({ services: { writer } }, [keyArg, countArg]) {
    const wif = asString(keyArg);
    const count = asUint32(countArg);
    let key: Uint8Array;
    try {
      key = privateKeyFromWif(wif);
    } catch {
      throw new RpcError(assertError('debug_private_key.valid(): debug_key is not a WIF private key', {}, where('debug_generate_blocks')));
    }
    const producing = writer.producing;
    if (producing === undefined) throw new RpcError(assertError('false: debug_generate_blocks needs a node that produces blocks; this one follows another node', {}, where('debug_generate_blocks')));
    if (publicKeyOf(key) !== producing.signingPublicKey) {
      throw new RpcError(assertError('debug_public_key == signing_key: debug_key must be the block signing key of this node (${key})', { key: producing.signingPublicKey }, where('debug_generate_blocks')));
    }
    await producing.produce(count);
    return null;
  },
  debug_push_blocks: unsupported('debug_push_blocks'),
  debug_update_object: unsupported('debug_update_object'),
  debug_stream_json_objects: unsupported('debug_stream_json_objects'),
  debug_stream_json_objects_flush: unsupported('debug_stream_json_objects_flush'),
} satisfies HandlerTable<typeof debugApi, 'front', FrontHandler>;
