import { ReplaySubject, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { SimulatedGateway } from '../../backtest/replay/simulated-gateway.js';
import { ConstantLatency } from '../../backtest/venue/matching/latency-model.js';
import { SimulatedVenue } from '../../backtest/venue/simulated-venue.js';
import { SimulatedVenuePort } from '../../backtest/venue/simulated-venue-port.js';
import type { BookEvent } from '../../framework/exchange/book/book-event.js';
import { dec } from '../../framework/model/decimal.js';
import type { StrategyReport } from '../../framework/model/strategy-report.js';
import type { MarketEvent } from '../../framework/model/stream/market-events.js';
import { BotKernel } from '../../framework/runtime/bot-kernel.js';
import { virtualSchedulers } from '../../framework/runtime/runtime-ports.js';
import type { StrategyContext, StrategyPlugin } from '../../framework/runtime/strategy.js';
import { VirtualClockScheduler } from '../../framework/runtime/virtual-clock-scheduler.js';
import { VirtualClock } from '../../framework/time/clock.js';
import { book } from '../risk/risk-fixtures.js';
import { BTC_PERP, BTC_PERP_CONFIG } from '../backtest/venue/support/futures-fixture.js';
import { FakeSymbolMarket } from '../backtest/venue/support/fake-symbol-market.js';
import { T0 } from '../backtest/venue/support/venue-fixture.js';

const SYMBOL = 'BTCUSDT_PERP';

/** A bot on a futures account of the simulated venue: BTCUSDT_PERP at 29999.0 / 30000.0, leverage 20 set on the exchange. */
async function futuresBot(leverage?: string) {
  const clock = new VirtualClock(T0);
  const scheduler = new VirtualClockScheduler(clock);
  const port = new SimulatedVenuePort('f', 'futures');
  const markets: FakeSymbolMarket[] = [];
  const venue = new SimulatedVenue([BTC_PERP], { f: { futures: { USDT: '10000' }, spot: { USDT: '500' } } }, (instrument) => {
    const market = new FakeSymbolMarket(instrument.symbol, instrument);
    markets.push(market);
    return market;
  }, (event) => port.onVenueEvent(event), T0, { futures: { configs: [BTC_PERP_CONFIG] } });
  port.attach(venue);
  markets[0]!.setBook([[300_000, 100_000]], [[299_990, 100_000]]);
  venue.futures.setLeverage('f', SYMBOL, '20');
  const books = new ReplaySubject<BookEvent>(1);
  books.next({ kind: 'snapshot', symbol: SYMBOL, sequence: 1, book: book(BTC_PERP, [['30000.0', '10']], [['29999.0', '10']]) });
  const reports: string[] = [];
  const context: { ctx?: StrategyContext } = {};
  const plugin: StrategyPlugin = {
    name: 'perp', description: 'trades a perpetual', parseParams: (raw) => raw,
    create: () => ({
      onStart: (ctx) => {
        context.ctx = ctx;
        return [
          ctx.place({ symbol: SYMBOL, side: 'buy', type: 'limit', quantity: dec('2'), price: dec('29000') }),
          ctx.place({ symbol: SYMBOL, side: 'buy', type: 'limit', quantity: dec('1'), price: dec('29000') }),
        ];
      },
      onReport: (_ctx, report: StrategyReport) => void reports.push(report.kind === 'order' ? `order:${report.report.status}` : report.kind === 'denied' ? `denied:${report.check}` : report.kind),
    }),
  };
  const kernel = new BotKernel({
    botId: 'p', strategyId: 'perp', plugin, params: {}, instruments: [BTC_PERP], market: { books$: books, market$: new Subject<MarketEvent>() },
    venue: port, gateway: new SimulatedGateway(port, scheduler, new ConstantLatency(0), () => venue.advanceTo(clock.now())),
    clock, schedulers: virtualSchedulers(scheduler), risk: {}, errorPolicy: 'halt', unknownOrders: 'cancel',
    leverage: leverage === undefined ? undefined : { [SYMBOL]: dec(leverage) },
  });
  await kernel.start();
  scheduler.advanceTo(T0);
  return { kernel, venue, scheduler, reports, ctx: () => context.ctx! };
}

describe('a bot on a futures account', () => {
  it('checks the risk limit on the exchange\'s own terms: its position configuration and the account\'s leverage', async () => {
    const bot = await futuresBot();
    // Limit 1 000 000 / 20 = 50 000 USDT: 2 BTC at 29 000 (58 000) is denied, 1 BTC (29 000) passes.
    expect(bot.kernel.pipeline.risk.leverage(SYMBOL)?.toFixed()).toBe('20');
    expect(bot.kernel.pipeline.risk.futuresConfig(SYMBOL)?.limit_base?.toFixed()).toBe('1000000');
    expect(bot.reports).toEqual(['denied:futures-risk-limit', 'order:new', 'accepted']);
    expect(bot.venue.openOrders('f').map((o) => o.quantity.toFixed())).toEqual(['1']);
  });

  it('shows a fill\'s position with the exchange\'s margin terms, read again after the fill', async () => {
    const bot = await futuresBot();
    const flat = bot.ctx().position(SYMBOL);
    expect(flat?.quantity.toFixed()).toBe('0');
    expect(flat?.margin?.leverage.toFixed()).toBe('20');
    bot.ctx().place({ symbol: SYMBOL, side: 'buy', type: 'market', quantity: dec('0.5') });
    bot.scheduler.advanceTo(T0 + 1);
    const position = bot.ctx().position(SYMBOL);
    expect(position?.quantity.toFixed()).toBe('0.5');
    expect(position?.averagePrice?.toFixed()).toBe('30000');
    expect(position?.margin).toMatchObject({ marginCurrency: 'USDT' });
    expect(position?.margin?.exchangeQuantity.toFixed()).toBe('0.5');
    expect(position?.margin?.entryPrice?.toFixed()).toBe('30000');
    // Isolated margin at leverage 20: 0.5 x 30 000 / 20 = 750 USDT.
    expect(position?.margin?.positionMargin.toFixed()).toBe('750');
    expect(position?.margin?.liquidationPrice).toBeDefined();
    // The futures port reports the futures balances, not the spot ones.
    expect(bot.kernel.adapter.account.balance('USDT')?.available.lessThan(dec('10000'))).toBe(true);
  });

  it('sets the configured leverage on the exchange before the strategy starts, and trades on it', async () => {
    // 50 instead of the 20 set on the exchange: the limit becomes 1 000 000 / 50 = 20 000, so the
    // strategy's 1 BTC at 29 000 is denied as well.
    const bot = await futuresBot('50');
    expect(bot.venue.futures.account('f', SYMBOL).leverage.toFixed()).toBe('50');
    expect(bot.kernel.pipeline.risk.leverage(SYMBOL)?.toFixed()).toBe('50');
    expect(bot.reports).toEqual(['denied:futures-risk-limit', 'denied:futures-risk-limit']);
  });
});
