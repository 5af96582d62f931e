// A thread that signs transactions for `generate`, and derives its accounts' public keys, so that
// this work (secp256k1, the most expensive step) runs beside the chain writer instead of before it.
// It also hands back each transaction's id, a hash of the bytes it packed to sign, so that the chain
// writer does not pack the transaction again for it. It signs with libsecp256k1 (wasm-signer.ts):
// the same signatures as keys.ts, about three times faster.
import { parentPort } from 'node:worker_threads';
import { signingDigestAndId } from '../chain/protocol/serializer.js';
import type { UnsignedTransactionJson } from '../chain/protocol/transaction-builder.js';
import { loadWasmSigner } from '../chain/crypto/wasm-signer.js';

export type SignRequest =
  | { readonly kind: 'sign'; readonly id: number; readonly chainId: string; readonly items: readonly { readonly trx: UnsignedTransactionJson; readonly key: Uint8Array }[] }
  /** the compressed public keys of these private keys */
  | { readonly kind: 'keys'; readonly id: number; readonly keys: readonly Uint8Array[] };

export interface SignReply {
  readonly id: number;
  readonly signatures?: string[];
  /** the signed transactions' ids, in order (computed from the bytes packed for signing) */
  readonly ids?: string[];
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
      const signatures: string[] = [];
      const ids: string[] = [];
      for (const { trx, key } of req.items) {
        const { digest, id } = signingDigestAndId(req.chainId, trx);
        signatures.push(s.signCompact(digest, key));
        ids.push(id);
      }
      parentPort!.postMessage({ id: req.id, signatures, ids } satisfies SignReply);
    },
  ).catch((err: unknown) => parentPort!.postMessage({ id: req.id, error: (err as Error).message } satisfies SignReply));
});
