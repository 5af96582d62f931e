// The error an evaluator throws when chain state refuses an operation (a balance, a name, an order):
// the producer answers the broadcast with it, and a block that meets one is not applied. A leaf
// module, so that every chain module below the evaluators can throw it.
export class ChainError extends Error {}
