import { ErrorCode } from '../../framework/exchange/errors.js';
import { VenueRejection } from '../venue/venue-types.js';
import { currencyTable } from './market-data-routes.js';
import type { MarketState } from './market-state.js';
import { invalid, optText, reqText } from './request-params.js';
import type { Route } from './rest-route.js';

/**
 * The deposit address and withdrawal endpoints of document 002, answered as the sandbox's
 * currencies are described (`GET /public/currency`): no chain behind them, so `payin_enabled` and
 * `payout_enabled` are false and an account has no deposit address. Listing gives none,
 * generating one or withdrawing is refused (600 Action not allowed, naming the currency), an
 * address is never the account's; an unknown currency is 2002.
 */
export function cryptoWalletRoutes(market: MarketState): Route[] {
  const currency = (code: string | undefined): string | undefined => {
    if (code !== undefined && currencyTable(market.symbols)[code] === undefined) throw new VenueRejection(ErrorCode.CurrencyNotFound, code);
    return code;
  };
  return [
    { method: 'GET', pattern: /^\/wallet\/crypto\/address$/, scope: 'other', right: 'payment',
      handle: (c) => {
        currency(optText(c.query, 'currency'));
        return [];
      } },
    { method: 'POST', pattern: /^\/wallet\/crypto\/address$/, scope: 'other', right: 'payment',
      handle: (c) => {
        const code = currency(reqText(c.body, 'currency'));
        throw new VenueRejection(ErrorCode.ActionNotAllowed, `deposits of ${code} are disabled (payin_enabled false): the sandbox has no chain`);
      } },
    { method: 'GET', pattern: /^\/wallet\/crypto\/address\/recent-(deposit|withdraw)$/, scope: 'other', right: 'payment',
      handle: (c) => {
        currency(reqText(c.query, 'currency'));
        return [];
      } },
    { method: 'GET', pattern: /^\/wallet\/crypto\/address\/check-mine$/, scope: 'other', right: 'payment',
      handle: (c) => {
        reqText(c.query, 'address');
        return { result: false };
      } },
    { method: 'POST', pattern: /^\/wallet\/crypto\/withdraw$/, scope: 'other', right: 'withdraw',
      handle: (c) => {
        const code = currency(reqText(c.body, 'currency'));
        const amount = reqText(c.body, 'amount');
        if (!/^\d+(\.\d+)?$/.test(amount) || !/[1-9]/.test(amount)) throw invalid('amount', 'must be a positive decimal');
        reqText(c.body, 'address');
        throw new VenueRejection(ErrorCode.ActionNotAllowed, `withdrawals of ${code} are disabled (payout_enabled false): the sandbox has no chain`);
      } },
  ];
}
