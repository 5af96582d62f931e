// A thread that signs transactions for `generate`, and derives its accounts' public keys, so that
// this work (secp256k1, the most expensive step) runs beside the chain writer instead of before it.
// It signs with libsecp256k1 (wasm-signer.ts): the same signatures as keys.ts, about three times
// faster.
import { parentPort } from 'node:worker_threads';
import { signingDigest } from './serializer.js';
import type { UnsignedTransactionJson } from './transaction-builder.js';
import { loadWasmSigner } from './wasm-signer.js';

export type SignRequest =
  | { readonly kind: 'sign'; readonly id: number; readonly chainId: string; readonly items: readonly { readonly trx: UnsignedTransactionJson; readonly key: Uint8Array }[] }
  /** the compressed public keys of these private keys */
  | { readonly kind: 'keys'; readonly id: number; readonly keys: readonly Uint8Array[] };

export interface SignReply {
  readonly id: number;
  readonly signatures?: string[];
  readonly publicKeys?: Uint8Array[];
  readonly error?: string;
}

const signer = loadWasmSigner();

parentPort!.on('message', (req: SignRequest) => {
  signer.then(
    (s) => {
      if (req.kind === 'keys') {
        parentPort!.postMessage({ id: req.id, publicKeys: req.keys.map((k) => s.publicKey(k)) } satisfies SignReply);
        return;
      }
      const signatures = req.items.map(({ trx, key }) => s.signCompact(signingDigest(req.chainId, trx), key));
      parentPort!.postMessage({ id: req.id, signatures } satisfies SignReply);
    },
  ).catch((err: unknown) => parentPort!.postMessage({ id: req.id, error: (err as Error).message } satisfies SignReply));
});
