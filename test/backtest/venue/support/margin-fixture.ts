import { Instrument } from '../../../../framework/model/instrument.js';
import { parseSymbolInfo } from '../../../../framework/model/resources/symbol.js';
import { SimulatedVenue } from '../../../../backtest/venue/simulated-venue.js';
import type { AccountBalances } from '../../../../backtest/venue/ledger.js';
import type { VenueEvent } from '../../../../backtest/venue/venue-types.js';
import { FakeSymbolMarket } from './fake-symbol-market.js';
import { BTCUSDT, T0 } from './venue-fixture.js';

/** ETHUSDT with margin trading: tick 0.01, lot 0.0001, taker 0.1%, maker 0.05%, fees in USDT, max leverage 10. */
export const MARGIN_ETHUSDT = new Instrument('ETHUSDT', parseSymbolInfo({
  type: 'spot', base_currency: 'ETH', quote_currency: 'USDT', quantity_increment: '0.0001', tick_size: '0.01',
  take_rate: '0.001', make_rate: '0.0005', fee_currency: 'USDT', margin_trading: true, max_initial_leverage: '10',
}));

/** Account `m` holds 5 000 USDT and 2 ETH on spot; `n` holds 100 USDT. */
export const MARGIN_BALANCES: Record<string, AccountBalances> = {
  m: { spot: { USDT: '5000', ETH: '2' } },
  n: { spot: { USDT: '100' } },
};

export interface MarginFixture {
  readonly venue: SimulatedVenue;
  readonly events: VenueEvent[];
  market(symbol: string): FakeSymbolMarket;
  /** Spot USDT of an account as text: available / reserved. */
  spot(account: string, currency?: string): { available: string; reserved: string };
  reports(account?: string): string[];
}

/** A venue with ETHUSDT (margin trading) and BTCUSDT (spot only) over fake markets. */
export function makeMarginVenue(balances: Record<string, AccountBalances> = MARGIN_BALANCES): MarginFixture {
  const events: VenueEvent[] = [];
  const markets = new Map<string, FakeSymbolMarket>();
  const venue = new SimulatedVenue([MARGIN_ETHUSDT, BTCUSDT], balances, (inst) => {
    const m = new FakeSymbolMarket(inst.symbol, inst);
    markets.set(inst.symbol, m);
    return m;
  }, (e) => events.push(e), T0);
  return {
    venue,
    events,
    market: (symbol) => markets.get(symbol) as FakeSymbolMarket,
    spot: (account, currency = 'USDT') => {
      const b = venue.spotBalances(account).find((x) => x.currency === currency);
      return { available: b?.available.toFixed() ?? '0', reserved: b?.reserved.toFixed() ?? '0' };
    },
    reports: (account) => events.flatMap((e) => (e.kind === 'order' && (account === undefined || e.account === account)
      ? [`${e.report.client_order_id}:${e.report.report_type}:${e.report.status}${e.margin === true ? ':margin' : ''}`] : [])),
  };
}
