// A thread that signs transactions for `generate`, so that signing (secp256k1 in JavaScript, the
// most expensive step) runs beside the chain writer instead of before it.
import { parentPort } from 'node:worker_threads';
import { transactionSignatures, type UnsignedTransactionJson } from './transaction-builder.js';

export interface SignRequest {
  readonly id: number;
  readonly chainId: string;
  readonly items: readonly { readonly trx: UnsignedTransactionJson; readonly key: Uint8Array }[];
}

export interface SignReply {
  readonly id: number;
  readonly signatures?: string[];
  readonly error?: string;
}

parentPort!.on('message', (req: SignRequest) => {
  try {
    const signatures = req.items.map(({ trx, key }) => transactionSignatures(req.chainId, trx, [key])[0]!);
    parentPort!.postMessage({ id: req.id, signatures } satisfies SignReply);
  } catch (err) {
    parentPort!.postMessage({ id: req.id, error: (err as Error).message } satisfies SignReply);
  }
});
