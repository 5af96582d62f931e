// The data shapes the chain modules pass to one another: transactions as clients send them, and
// what one applied change did. They live in the protocol level, below the store, the evaluators and
// the block applier, so that each of those imports them without importing the others (imports flow
// one way: node → plugins → evaluators → store → protocol).

export type OperationJson = [number, Record<string, unknown>];
export type OperationResult = [number, unknown];

/** A transaction as clients send it (signed_transaction JSON). */
export interface SignedTransactionJson {
  ref_block_num: number;
  ref_block_prefix: number;
  expiration: string;
  operations: OperationJson[];
  extensions: unknown[];
  signatures: string[];
}

/** What one applied change did, for the change feed (notices build on it). */
export interface ChangeSet {
  created: string[];
  changed: string[];
  removed: string[];
  /** the served JSON of every created and changed object, and the last JSON of every removed one, by id */
  json: Map<string, string>;
  /**
   * Accounts each batch concerns (Core's get_relevant_accounts over the batch's objects): the
   * notices of a block go to every session subscribed to one of them.
   */
  createdAccounts: Set<number>;
  changedAccounts: Set<number>;
  removedAccounts: Set<number>;
}

/** A virtual operation an evaluator caused (Core's push_applied_operation), for history. */
export interface VirtualOperation {
  readonly op: OperationJson;
  readonly result: OperationResult;
  /** the accounts whose history it enters (operation_get_impacted_accounts) */
  readonly impacted: readonly number[];
}
