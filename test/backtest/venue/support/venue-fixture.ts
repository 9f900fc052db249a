import { Instrument } from '../../../../framework/model/instrument.js';
import { parseSymbolInfo } from '../../../../framework/model/resources/symbol.js';
import { SimulatedVenue } from '../../../../backtest/venue/simulated-venue.js';
import type { AccountBalances } from '../../../../backtest/venue/ledger.js';
import type { OrderReport } from '../../../../framework/model/stream/order-report.js';
import type { VenueEvent } from '../../../../backtest/venue/venue-types.js';
import type { SymbolMarket } from '../../../../backtest/venue/matching/market-port.js';
import type { Instrument as InstrumentType } from '../../../../framework/model/instrument.js';
import { FakeSymbolMarket } from './fake-symbol-market.js';

/** 2024-08-08 12:00:00 UTC. */
export const T0 = Date.UTC(2024, 7, 8, 12, 0, 0);

/** ETHUSDT: tick 0.01, lot 0.0001, taker 0.25%, maker 0.1%, fees in USDT. */
export const ETHUSDT = new Instrument('ETHUSDT', parseSymbolInfo({
  type: 'spot', base_currency: 'ETH', quote_currency: 'USDT', quantity_increment: '0.0001', tick_size: '0.01',
  take_rate: '0.0025', make_rate: '0.001', fee_currency: 'USDT',
}));

/** BTCUSDT: tick 0.1, lot 0.00001, taker 0.1%, maker rebate -0.01%. */
export const BTCUSDT = new Instrument('BTCUSDT', parseSymbolInfo({
  type: 'spot', base_currency: 'BTC', quote_currency: 'USDT', quantity_increment: '0.00001', tick_size: '0.1',
  take_rate: '0.001', make_rate: '-0.0001', fee_currency: 'USDT',
}));

/** A symbol that does not accept orders. */
export const HALTED = new Instrument('HALTUSDT', parseSymbolInfo({
  type: 'spot', base_currency: 'HALT', quote_currency: 'USDT', quantity_increment: '1', tick_size: '1',
  take_rate: '0.001', make_rate: '0.001', fee_currency: 'USDT', status: 'suspended',
}));

/** A venue over fake markets, recording every event. */
export interface VenueFixture {
  readonly venue: SimulatedVenue;
  readonly events: VenueEvent[];
  readonly markets: Map<string, SymbolMarket>;
  /** The fake market of a symbol (only with the default factory). */
  market(symbol: string): FakeSymbolMarket;
  /** The market of a symbol, whatever its implementation. */
  symbolMarket(symbol: string): SymbolMarket;
  /** Order reports of the account since the last {@link clearEvents}, as `client_order_id:report_type:status`. */
  reports(account?: string): string[];
  orderReports(account?: string): OrderReport[];
  clearEvents(): void;
}

/** Default balances: account `a` holds 10 000 USDT and 5 ETH on spot, 1 000 USDT in the wallet. */
export const DEFAULT_BALANCES: Record<string, AccountBalances> = {
  a: { spot: { USDT: '10000', ETH: '5', BTC: '1' }, wallet: { USDT: '1000' } },
  b: { spot: { USDT: '500' } },
};

export function makeVenue(
  balances: Record<string, AccountBalances> = DEFAULT_BALANCES,
  start = T0,
  factory: (inst: InstrumentType) => SymbolMarket = (inst) => new FakeSymbolMarket(inst.symbol, inst),
): VenueFixture {
  const events: VenueEvent[] = [];
  const markets = new Map<string, SymbolMarket>();
  const venue = new SimulatedVenue(
    [ETHUSDT, BTCUSDT, HALTED],
    balances,
    (inst) => {
      const m = factory(inst);
      markets.set(inst.symbol, m);
      return m;
    },
    (e) => events.push(e),
    start,
  );
  const orderReports = (account?: string): OrderReport[] =>
    events.flatMap((e) => (e.kind === 'order' && (account === undefined || e.account === account) ? [e.report] : []));
  return {
    venue,
    events,
    markets,
    market: (symbol) => {
      const m = markets.get(symbol);
      if (!(m instanceof FakeSymbolMarket)) throw new Error(`${symbol} has no fake market`);
      return m;
    },
    symbolMarket: (symbol) => markets.get(symbol) as SymbolMarket,
    orderReports,
    reports: (account) => orderReports(account).map((r) => `${r.client_order_id}:${r.report_type}:${r.status}`),
    clearEvents: () => {
      events.length = 0;
    },
  };
}

/** A `trades` frame of one symbol. */
export function tradesFrame(symbol: string, trades: readonly { p: string; q: string; s: 'buy' | 'sell'; t?: number }[]): unknown {
  return { ch: 'trades', update: { [symbol]: trades.map((t, i) => ({ t: t.t ?? T0, i: i + 1, p: t.p, q: t.q, s: t.s })) } };
}

let bookSequence = 0;

/** An `orderbook/full` snapshot frame of one symbol, levels as [ticks, lots] of the instrument. */
export function bookSnapshot(instrument: InstrumentType, asks: readonly (readonly [number, number])[], bids: readonly (readonly [number, number])[], t = T0): unknown {
  const level = ([p, q]: readonly [number, number]): [string, string] => [instrument.ticksToPrice(p), instrument.lotsToQuantity(q)];
  return { ch: 'orderbook/full', snapshot: { [instrument.symbol]: { t, s: ++bookSequence, a: asks.map(level), b: bids.map(level) } } };
}
