import { ErrorCode } from '../../framework/exchange/errors.js';
import { VenueRejection } from '../venue/venue-types.js';
import type { MarketState } from './market-state.js';

/**
 * Which of the market's symbols one section of the API (futures, margin) knows: {@link has}
 * decides; any other symbol is 2001 Symbol not found there.
 */
export abstract class SectionScope {
  constructor(
    protected readonly market: MarketState,
    /** How a refusal names the section's symbols, e.g. `futures contract`. */
    private readonly what: string,
  ) {}

  /** True for a symbol of the section. */
  abstract has(symbol: string): boolean;

  /** The section's symbols, sorted. */
  get symbols(): string[] {
    return Object.keys(this.market.symbols).filter((s) => this.has(s)).sort();
  }

  /** `symbol`, or 2001 when the section does not know it. */
  require(symbol: string): string {
    if (!this.has(symbol)) throw new VenueRejection(ErrorCode.SymbolNotFound, `${this.what} ${symbol} not found`);
    return symbol;
  }
}
