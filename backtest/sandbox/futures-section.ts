import type { Venue } from '../venue/venue-types.js';
import { futuresAccountRoutes } from './futures-account-routes.js';
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
}

/**
 * The futures endpoints and `futures_*` methods when the venue has futures accounts; none
 * otherwise (their paths stay 404 and the methods unknown, as before the venue had them).
 */
export function futuresSection(venue: Venue, market: MarketState): FuturesSection {
  const scope = new FuturesScope(market);
  const futures = futuresVenueOf(venue);
  if (futures === undefined) return { routes: [], methods: {}, scope };
  return {
    routes: [...futuresAccountRoutes(futures, scope), ...futuresOrderRoutes(venue, scope)],
    methods: futuresTradingMethods(venue, futures, scope),
    scope,
  };
}
