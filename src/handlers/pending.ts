// database_api's one call on the pending state: validate_transaction applies a transaction on top of
// everything pending, as broadcasting it would, and undoes it. The producer owns that state, so it
// runs here, in the front end.
import type { databaseApi } from '../api/sets/database.js';
import type { HandlerTable } from '../api/types.js';
import type { FrontHandler } from './types.js';

export const pendingStateHandlers = {
  validate_transaction({ services }, [trx]) {
    return services.writer.validate(trx);
  },
} satisfies Pick<HandlerTable<typeof databaseApi, 'front', FrontHandler>, 'validate_transaction'>;
