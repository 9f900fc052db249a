import { Instrument } from '../../framework/model/instrument.js';
import type { QueueModel } from '../venue/matching/queue-model.js';
import { ReplayedSymbolMarket } from '../venue/matching/replayed-symbol-market.js';
import { SimulatedVenue, type SimulatedVenueOptions } from '../venue/simulated-venue.js';
import type { VenueFactory } from './sandbox-config.js';

/**
 * The sandbox's venue: the same {@link SimulatedVenue} the backtester drives, one replayed market
 * per symbol (fills against the outside book and trades), so paper and backtest fill alike.
 * Venue time starts at `startTime` and follows the market frames from there; `options` are the
 * venue's (history retention, futures terms such as the contracts' position configurations);
 * `queueModel` places resting orders in their levels' queues (trades-only by default).
 */
export function simulatedVenueFactory(startTime = 0, options: SimulatedVenueOptions = {}, queueModel?: QueueModel): VenueFactory {
  return ({ symbols, accounts, onEvent }) => new SimulatedVenue(
    Object.entries(symbols).map(([code, info]) => new Instrument(code, info)),
    Object.fromEntries(accounts.map((a) => [a.id, { spot: a.spot, wallet: a.wallet, futures: a.futures, margin: a.margin }])),
    (instrument) => new ReplayedSymbolMarket(instrument, { queueModel }),
    onEvent,
    startTime,
    options,
  );
}
