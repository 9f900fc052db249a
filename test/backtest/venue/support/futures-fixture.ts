import { Instrument } from '../../../../framework/model/instrument.js';
import { Decimal } from '../../../../framework/model/decimal.js';
import { parseSymbolInfo } from '../../../../framework/model/resources/symbol.js';
import type { FuturesPositionConfig } from '../../../../framework/model/resources/futures-config.js';
import { SimulatedVenue } from '../../../../backtest/venue/simulated-venue.js';
import type { AccountBalances } from '../../../../backtest/venue/ledger.js';
import type { FuturesVenueOptions } from '../../../../backtest/venue/futures/futures-terms.js';
import type { VenueEvent } from '../../../../backtest/venue/venue-types.js';
import { VenueRejection } from '../../../../backtest/venue/venue-types.js';
import { FakeSymbolMarket } from './fake-symbol-market.js';
import { ETHUSDT, T0 } from './venue-fixture.js';

/** ETHUSDT_PERP: perpetual, tick 0.01, lot 0.001, taker 0.05%, maker 0.02%, margin and fees in USDT, max leverage 50. */
export const PERP = new Instrument('ETHUSDT_PERP', parseSymbolInfo({
  type: 'futures', contract_type: 'perpetual', expiry: null, underlying: 'ETH', base_currency: null, quote_currency: 'USDT',
  quantity_increment: '0.001', tick_size: '0.01', take_rate: '0.0005', make_rate: '0.0002', fee_currency: 'USDT',
  margin_trading: true, max_initial_leverage: '50',
}));

/** BTCUSDT_PERP: tick 0.1, lot 0.0001, taker 0.04%, maker rebate -0.01%, max leverage 100 (from its config). */
export const BTC_PERP = new Instrument('BTCUSDT_PERP', parseSymbolInfo({
  type: 'futures', contract_type: 'perpetual', expiry: null, underlying: 'BTC', base_currency: null, quote_currency: 'USDT',
  quantity_increment: '0.0001', tick_size: '0.1', take_rate: '0.0004', make_rate: '-0.0001', fee_currency: 'USDT',
  margin_trading: true,
}));

/** ETHUSDT_Q: cash-settled, expiring at T0 + 1 h; tick 0.01, lot 0.001, taker 0.05%, maker 0.02%, max leverage 20. */
export const QUARTERLY = new Instrument('ETHUSDT_Q', parseSymbolInfo({
  type: 'futures', contract_type: 'cash_settled', expiry: new Date(T0 + 3_600_000).toISOString(), underlying: 'ETH', base_currency: null,
  quote_currency: 'USDT', quantity_increment: '0.001', tick_size: '0.01', take_rate: '0.0005', make_rate: '0.0002', fee_currency: 'USDT',
  margin_trading: true, max_initial_leverage: '20',
}));

/** Position configuration of BTCUSDT_PERP, with a risk limit: 1 000 000 / L^1 above leverage 5. */
export const BTC_PERP_CONFIG: FuturesPositionConfig = {
  symbol: 'BTCUSDT_PERP',
  margin_call_leverage_mul: new Decimal('1.5'),
  liquidation_leverage_mul: new Decimal('2'),
  max_initial_leverage: new Decimal('100'),
  margin_mode: 'Isolated',
  force_close_fee: new Decimal('0.001'),
  enabled: true,
  active: true,
  limit_base: new Decimal('1000000'),
  limit_power: new Decimal('1'),
  unlimited_threshold: new Decimal('5'),
};

/** Account `f` holds 10 000 USDT of futures margin and 1 000 USDT on spot; `g` holds 100 USDT of futures margin. */
export const FUTURES_BALANCES: Record<string, AccountBalances> = {
  f: { futures: { USDT: '10000' }, spot: { USDT: '1000' } },
  g: { futures: { USDT: '100' } },
};

export interface FuturesFixture {
  readonly venue: SimulatedVenue;
  readonly events: VenueEvent[];
  market(symbol: string): FakeSymbolMarket;
  /** Futures balance of a currency as text: available / reserved / reserved_margin. */
  balance(account: string, currency?: string): { available: string; reserved: string; reserved_margin: string };
  reports(account?: string): string[];
}

export function makeFuturesVenue(
  balances: Record<string, AccountBalances> = FUTURES_BALANCES,
  options: FuturesVenueOptions = { configs: [BTC_PERP_CONFIG] },
  start = T0,
): FuturesFixture {
  const events: VenueEvent[] = [];
  const markets = new Map<string, FakeSymbolMarket>();
  const venue = new SimulatedVenue([PERP, BTC_PERP, QUARTERLY, ETHUSDT], balances, (inst) => {
    const m = new FakeSymbolMarket(inst.symbol, inst);
    markets.set(inst.symbol, m);
    return m;
  }, (e) => events.push(e), start, { futures: options });
  return {
    venue,
    events,
    market: (symbol) => markets.get(symbol) as FakeSymbolMarket,
    balance: (account, currency = 'USDT') => {
      const b = venue.futures.balances(account).find((x) => x.currency === currency);
      return { available: b?.available.toFixed() ?? '0', reserved: b?.reserved.toFixed() ?? '0', reserved_margin: b?.reserved_margin?.toFixed() ?? '0' };
    },
    reports: (account) => events.flatMap((e) => (e.kind === 'order' && (account === undefined || e.account === account)
      ? [`${e.report.client_order_id}:${e.report.report_type}:${e.report.status}`] : [])),
  };
}

/** The VenueRejection `fn` throws. */
export function rejection(fn: () => unknown): VenueRejection {
  try {
    fn();
  } catch (e) {
    if (e instanceof VenueRejection) return e;
    throw e;
  }
  throw new Error('expected a VenueRejection');
}
