import type { Venue } from '../venue/venue-types.js';
import type { MarketState } from './market-state.js';
import { marginOrderRoutes } from './margin-order-routes.js';
import { MarginScope, marginVenueOf } from './margin-scope.js';
import { marginTradingMethods } from './margin-stream-methods.js';
import { positionAccountRoutes } from './position-account-routes.js';
import type { Route } from './rest-route.js';
import type { StreamMethod } from './rpc-stream.js';

/** The margin part of the sandbox's API: REST routes and trading-stream methods. */
export interface MarginSection {
  readonly routes: readonly Route[];
  readonly methods: Readonly<Record<string, StreamMethod>>;
}

/**
 * The margin endpoints (document 001, Margin: accounts, account update, positions, orders, position
 * and clearing history) and `margin_*` methods when the venue has margin accounts; none otherwise
 * (their paths stay 404 and the methods unknown).
 */
export function marginSection(venue: Venue, market: MarketState): MarginSection {
  const margin = marginVenueOf(venue);
  if (margin === undefined) return { routes: [], methods: {} };
  const scope = new MarginScope(market);
  return {
    routes: [...positionAccountRoutes('margin', margin, scope), ...marginOrderRoutes(margin, scope)],
    methods: marginTradingMethods(venue, margin, scope, () => scope.symbols),
  };
}
