import type { Venue } from '../venue/venue-types.js';
import { futuresAccountRoutes } from './futures-account-routes.js';
import { FuturesMarketData } from './futures-market-data.js';
import { futuresMarketDataRoutes } from './futures-market-data-routes.js';
import { futuresOrderRoutes } from './futures-order-routes.js';
import { FuturesScope, futuresVenueOf } from './futures-scope.js';
import { futuresTradingMethods } from './futures-stream-methods.js';
import type { MarketState } from './market-state.js';
import type { Route } from './rest-route.js';
import type { StreamMethod } from './rpc-stream.js';

/** The futures part of the sandbox's API: REST routes, trading-stream methods and the contracts they see. */
export interface FuturesSection {
  readonly routes: readonly Route[];
  readonly methods: Readonly<Record<string, StreamMethod>>;
  readonly scope: FuturesScope;
  /** The public futures market data (recorded futures info, or derived from the venue). */
  readonly data: FuturesMarketData;
}

/**
 * The futures endpoints and `futures_*` methods when the venue has futures accounts; otherwise only
 * the public futures market data (from recorded futures info, if any): the account paths stay 404
 * and the methods unknown, as before the venue had them.
 */
export function futuresSection(venue: Venue, market: MarketState, now: () => number = Date.now): FuturesSection {
  const scope = new FuturesScope(market);
  const futures = futuresVenueOf(venue);
  const data = new FuturesMarketData(scope, market, futures, now);
  const publicRoutes = futuresMarketDataRoutes(data, scope);
  if (futures === undefined) return { routes: publicRoutes, methods: {}, scope, data };
  return {
    routes: [...publicRoutes, ...futuresAccountRoutes(futures, scope), ...futuresOrderRoutes(venue, scope)],
    methods: futuresTradingMethods(venue, futures, scope),
    scope,
    data,
  };
}
