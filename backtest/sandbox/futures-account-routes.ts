import { tradingBalanceToWire } from '../../framework/model/resources/balance.js';
import { Decimal } from '../../framework/model/decimal.js';
import type { SimulatedFuturesVenue } from '../venue/futures/simulated-futures-venue.js';
import type { FuturesScope } from './futures-scope.js';
import { futuresConfigToWire } from './futures-wire.js';
import { positionAccountRoutes } from './position-account-routes.js';
import { accountOf, type Route } from './rest-route.js';

const SEG = '([^/]+)';

/**
 * Futures balances, accounts and positions (document 001, Futures) over the venue's futures
 * accounts: balances, isolated accounts, the contracts' position configuration, leverage and margin
 * balance (`PUT`: the margin moves from or to the spot trading account, the one transfer the venue
 * supports), closing positions, and the position and clearing histories (`positionAccountRoutes`).
 * `GET .../account/isolated/{symbol}` takes the eased right (R1).
 */
export function futuresAccountRoutes(futures: SimulatedFuturesVenue, scope: FuturesScope): Route[] {
  return [
    { method: 'GET', pattern: /^\/futures\/balance$/, scope: 'other', right: 'orderbook',
      handle: (c) => futures.balances(accountOf(c)).map(tradingBalanceToWire) },
    { method: 'GET', pattern: new RegExp(`^/futures/balance/${SEG}$`), scope: 'other', right: 'orderbook',
      handle: (c) => {
        const currency = c.params[0] ?? '';
        const zero = new Decimal(0);
        const found = futures.balances(accountOf(c)).find((b) => b.currency === currency);
        return tradingBalanceToWire(found ?? { currency, available: zero, reserved: zero, reserved_margin: zero });
      } },
    ...positionAccountRoutes('futures', futures, scope),
    { method: 'GET', pattern: /^\/futures\/config$/, scope: 'other', right: 'orderbook',
      handle: () => ({ config: scope.symbols.flatMap((s) => {
        const terms = futures.terms().get(s);
        return terms === undefined ? [] : [futuresConfigToWire(terms)];
      }) }) },
  ];
}
