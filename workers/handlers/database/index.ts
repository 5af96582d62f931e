// database_api handlers (reference §4.1, §4.11), after BitShares Core's database_api.cpp, one file
// per group of its FC_API list (the groups of src/api/sets/database.ts).
//
// Arguments are converted first, all of them, as fc does before the C++ body runs, so a malformed
// argument fails before any lookup or limit check.
//
// This node behaves as Core with the api_helper_indexes and market_history plugins enabled (it has
// the key and account reference indexes, the amounts in collateral, limit orders and the market
// history), on a chain without liquidity pools, SameT funds, credit offers, tickets, withdraw
// permissions or blinded balances: those calls keep Core's argument and limit checks and answer
// "nothing", as src/api/unkept.ts lists them (README, "Functions about subsystems this chain does
// not have").
import type { databaseApi } from '../../../src/api/sets/database.js';
import type { HandlersFor } from '../types.js';
import { objectAndBlockHandlers } from './objects-blocks.js';
import { globalHandlers } from './globals.js';
import { accountHandlers } from './accounts.js';
import { balanceHandlers } from './balances.js';
import { assetHandlers } from './assets.js';
import { marketHandlers } from './markets.js';
import { liquidityPoolHandlers } from './liquidity-pools.js';
import { lendingHandlers } from './lending.js';
import { governanceHandlers } from './governance.js';
import { authorityHandlers } from './authority.js';
import { conditionalTransferHandlers } from './conditional-transfers.js';

/** The groups, each a disjoint part of the table (test/database-handlers.test.ts checks they are). */
export const DATABASE_GROUPS = {
  objectAndBlockHandlers,
  globalHandlers,
  accountHandlers,
  balanceHandlers,
  assetHandlers,
  marketHandlers,
  liquidityPoolHandlers,
  lendingHandlers,
  governanceHandlers,
  authorityHandlers,
  conditionalTransferHandlers,
};

export const databaseHandlers = {
  ...objectAndBlockHandlers,
  ...globalHandlers,
  ...accountHandlers,
  ...balanceHandlers,
  ...assetHandlers,
  ...marketHandlers,
  ...liquidityPoolHandlers,
  ...lendingHandlers,
  ...governanceHandlers,
  ...authorityHandlers,
  ...conditionalTransferHandlers,
} satisfies HandlersFor<typeof databaseApi>;
