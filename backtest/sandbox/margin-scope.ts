import { SimulatedMarginVenue } from '../venue/margin/simulated-margin-venue.js';
import type { Venue } from '../venue/venue-types.js';
import type { MarketState } from './market-state.js';
import { SectionScope } from './section-scope.js';

/** The margin side of `venue` (`SimulatedVenue.margin`); undefined for a venue without margin accounts. */
export function marginVenueOf(venue: Venue): SimulatedMarginVenue | undefined {
  const margin = (venue as { readonly margin?: unknown }).margin;
  return margin instanceof SimulatedMarginVenue ? margin : undefined;
}

/**
 * Which symbols the margin endpoints know: the market's spot symbols with `margin_trading`. Any
 * other symbol is 2001 Symbol not found there. (Margin orders are told apart from spot ones by the
 * venue, not by symbol: both trade the same symbols.)
 */
export class MarginScope extends SectionScope {
  constructor(market: MarketState) {
    super(market, 'margin symbol');
  }

  /** True for a symbol with isolated margin trading. */
  has(symbol: string): boolean {
    const info = this.market.symbols[symbol];
    return info !== undefined && info.type !== 'futures' && info.margin_trading;
  }
}
