// database_api: SameT funds, and Credit offers and deals: the two lending subsystems. None exist
// (src/api/unkept.ts); Core counts credit offers and credit deals alike against
// api_limit_get_credit_offers.

import { answerNothing } from '../unkept-answers.js';
import { typed } from './arguments.js';
import { byAccountPage, byAssetPage, listPage } from './checks.js';
import type { databaseApi } from '../../../src/api/sets/database.js';
import type { HandlersFor } from '../types.js';

export const lendingHandlers = {
  // SameT funds

  list_samet_funds(ctx, [limitArg, startArg], out) {
    listPage('list_samet_funds', [1, 20], limitArg, startArg, ctx.config.apiLimits.api_limit_get_samet_funds);
    answerNothing(out, 'database', 'list_samet_funds');
  },

  get_samet_funds_by_owner(ctx, [nameOrId, limitArg, startArg], out) {
    byAccountPage(ctx, 'get_samet_funds_by_owner', [1, 20], nameOrId, limitArg, startArg, ctx.config.apiLimits.api_limit_get_samet_funds);
    answerNothing(out, 'database', 'get_samet_funds_by_owner');
  },

  get_samet_funds_by_asset(ctx, [assetArg, limitArg, startArg], out) {
    byAssetPage(ctx, 'get_samet_funds_by_asset', [1, 20], assetArg, limitArg, startArg, ctx.config.apiLimits.api_limit_get_samet_funds);
    answerNothing(out, 'database', 'get_samet_funds_by_asset');
  },

  // Credit offers and deals

  list_credit_offers(ctx, [limitArg, startArg], out) {
    listPage('list_credit_offers', [1, 21], limitArg, startArg, ctx.config.apiLimits.api_limit_get_credit_offers);
    answerNothing(out, 'database', 'list_credit_offers');
  },

  get_credit_offers_by_owner(ctx, [nameOrId, limitArg, startArg], out) {
    byAccountPage(ctx, 'get_credit_offers_by_owner', [1, 21], nameOrId, limitArg, startArg, ctx.config.apiLimits.api_limit_get_credit_offers);
    answerNothing(out, 'database', 'get_credit_offers_by_owner');
  },

  get_credit_offers_by_asset(ctx, [assetArg, limitArg, startArg], out) {
    byAssetPage(ctx, 'get_credit_offers_by_asset', [1, 21], assetArg, limitArg, startArg, ctx.config.apiLimits.api_limit_get_credit_offers);
    answerNothing(out, 'database', 'get_credit_offers_by_asset');
  },

  list_credit_deals(ctx, [limitArg, startArg], out) {
    listPage('list_credit_deals', [1, 22], limitArg, startArg, ctx.config.apiLimits.api_limit_get_credit_offers);
    answerNothing(out, 'database', 'list_credit_deals');
  },

  get_credit_deals_by_offer_id(ctx, [offerArg, limitArg, startArg], out) {
    typed(1, 21)(offerArg);
    listPage('get_credit_deals_by_offer_id', [1, 22], limitArg, startArg, ctx.config.apiLimits.api_limit_get_credit_offers);
    answerNothing(out, 'database', 'get_credit_deals_by_offer_id');
  },

  get_credit_deals_by_offer_owner(ctx, [nameOrId, limitArg, startArg], out) {
    byAccountPage(ctx, 'get_credit_deals_by_offer_owner', [1, 22], nameOrId, limitArg, startArg, ctx.config.apiLimits.api_limit_get_credit_offers);
    answerNothing(out, 'database', 'get_credit_deals_by_offer_owner');
  },

  get_credit_deals_by_borrower(ctx, [nameOrId, limitArg, startArg], out) {
    byAccountPage(ctx, 'get_credit_deals_by_borrower', [1, 22], nameOrId, limitArg, startArg, ctx.config.apiLimits.api_limit_get_credit_offers);
    answerNothing(out, 'database', 'get_credit_deals_by_borrower');
  },

  get_credit_deals_by_debt_asset(ctx, [assetArg, limitArg, startArg], out) {
    byAssetPage(ctx, 'get_credit_deals_by_debt_asset', [1, 22], assetArg, limitArg, startArg, ctx.config.apiLimits.api_limit_get_credit_offers);
    answerNothing(out, 'database', 'get_credit_deals_by_debt_asset');
  },

  get_credit_deals_by_collateral_asset(ctx, [assetArg, limitArg, startArg], out) {
    byAssetPage(ctx, 'get_credit_deals_by_collateral_asset', [1, 22], assetArg, limitArg, startArg, ctx.config.apiLimits.api_limit_get_credit_offers);
    answerNothing(out, 'database', 'get_credit_deals_by_collateral_asset');
  },
} satisfies Partial<HandlersFor<typeof databaseApi>>;
