import { Instrument } from '../../framework/model/instrument.js';
import type { QueueModel } from '../venue/matching/queue-model.js';
import { ReplayedSymbolMarket } from '../venue/matching/replayed-symbol-market.js';
import { SimulatedVenue, type SimulatedVenueOptions } from '../venue/simulated-venue.js';
import type { VenueFactory } from './sandbox-config.js';
import type { SymbolInfo } from '../../framework/model/resources/symbol.js';
import { marginFunding } from '../venue/margin/margin-funding.js';
import type { InitialBalances } from '../venue/venue-types.js';

/**
 * The sandbox's venue: the same {@link SimulatedVenue} the backtester drives, one replayed market
 * per symbol (fills against the outside book and trades), so paper and backtest fill alike.
 * Venue time starts at `startTime` and follows the market frames from there; `options` are the
 * venue's (history retention, futures terms such as the contracts' position configurations);
 * `queueModel` places resting orders in their levels' queues (trades-only by default).
 * `marginSymbols` (a paper run on a margin account) moves each account's spot balances of their
 * quote currencies to their isolated margin accounts at start (see `marginFunding`).
 */
export function simulatedVenueFactory(startTime = 0, options: SimulatedVenueOptions = {}, queueModel?: QueueModel, marginSymbols?: readonly string[]): VenueFactory {
  return ({ symbols, accounts, onEvent }) => new SimulatedVenue(
    Object.entries(symbols).map(([code, info]) => new Instrument(code, info)),
    Object.fromEntries(accounts.map((a) => {
      const start = startOnMargin(symbols, a.spot, marginSymbols);
      return [a.id, { spot: start.spot, wallet: a.wallet, futures: a.futures, margin: { ...start.margin, ...a.margin } }];
    })),
    (instrument) => new ReplayedSymbolMarket(instrument, { queueModel }),
    onEvent,
    startTime,
    options,
  );
}

/** The spot balances of an account, or with `marginSymbols` the spot and margin ones `marginFunding` makes of them. */
function startOnMargin(
  symbols: Readonly<Record<string, SymbolInfo>>, spot: InitialBalances | undefined, marginSymbols: readonly string[] | undefined,
): { readonly spot?: InitialBalances; readonly margin?: InitialBalances } {
  if (marginSymbols === undefined || spot === undefined) return { spot };
  const instruments = marginSymbols.flatMap((code) => {
    const info = symbols[code];
    // A symbol without margin trading is left to the bot's own check, which names it.
    return info === undefined || !info.margin_trading ? [] : [new Instrument(code, info)];
  });
  return marginFunding(instruments, spot);
}
