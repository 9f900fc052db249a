import { ReplaySubject, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { BookEvent } from '../../framework/exchange/book/book-event.js';
import { Decimal, dec } from '../../framework/model/decimal.js';
import { Instrument } from '../../framework/model/instrument.js';
import type { StrategyReport } from '../../framework/model/strategy-report.js';
import type { MarketEvent } from '../../framework/model/stream/market-events.js';
import { BotKernel } from '../../framework/runtime/bot-kernel.js';
import { liveSchedulers } from '../../framework/runtime/runtime-ports.js';
import type { StrategyContext, StrategyPlugin } from '../../framework/runtime/strategy.js';
import { LiveClock } from '../../framework/time/clock.js';
import { PERP_INFO, startFuturesSandbox } from '../backtest/sandbox/support/futures-sandbox-fixture.js';
import { eventually, startedVenuePort, teardownAfterEach } from '../backtest/sandbox/support/sandbox-fixture.js';
import { book } from '../risk/risk-fixtures.js';

const SYMBOL = 'BTCUSDT_PERP';
const PERP = new Instrument(SYMBOL, PERP_INFO);

const teardown = teardownAfterEach();

describe('a live bot on a futures account of the sandbox (real clients, loopback)', () => {
  it('trades under the exchange\'s risk limit and leverage, shows the position with its margin, and stops with nothing open', async () => {
    // A risk limit of 1000 / L above leverage 5: at leverage 10, 100 USDT of orders and position.
    const started = await startFuturesSandbox({
      futures: {
        configs: [{
          symbol: SYMBOL, margin_call_leverage_mul: new Decimal('1.2'), liquidation_leverage_mul: new Decimal('2'), max_initial_leverage: new Decimal('20'),
          margin_mode: 'isolated', force_close_fee: new Decimal('0.001'), enabled: true, active: true,
          limit_base: new Decimal('1000'), limit_power: new Decimal('1'), unlimited_threshold: new Decimal('5'),
        }],
      },
    });
    const { server } = teardown.sandbox(started);
    const rest = started.rest;
    // 500 USDT of margin at the exchange's default leverage; the bot sets 10 itself before trading.
    await rest.futures.updateAccount(SYMBOL, { margin_balance: '500' });
    const clock = new LiveClock();
    const port = await startedVenuePort(teardown, server, rest, 'futures', clock);

    const reports: string[] = [];
    const context: { ctx?: StrategyContext } = {};
    const plugin: StrategyPlugin = {
      name: 'perp', description: 'trades a perpetual', parseParams: (raw) => raw,
      create: () => ({
        onStart: (ctx) => {
          context.ctx = ctx;
          return [
            // 2 x 99 = 198 is beyond the limit; 0.5 x 99 = 49.5 rests; a market buy of 0.2 fills at 101.
            ctx.place({ symbol: SYMBOL, side: 'buy', type: 'limit', quantity: dec('2'), price: dec('99') }),
            ctx.place({ symbol: SYMBOL, side: 'buy', type: 'limit', quantity: dec('0.5'), price: dec('99') }),
            ctx.place({ symbol: SYMBOL, side: 'buy', type: 'market', quantity: dec('0.2') }),
          ];
        },
        onReport: (_ctx, report: StrategyReport) => void reports.push(report.kind === 'denied' ? `denied:${report.check}` : report.kind),
      }),
    };
    const books = new ReplaySubject<BookEvent>(1);
    books.next({ kind: 'snapshot', symbol: SYMBOL, sequence: 1, book: book(PERP, [['101.0', '2']], [['99.0', '2']]) });
    const kernel = new BotKernel({
      botId: 'fut', strategyId: 'perp', plugin, params: {}, instruments: [PERP], market: { books$: books, market$: new Subject<MarketEvent>() },
      venue: port, clock, schedulers: liveSchedulers(), risk: {}, errorPolicy: 'halt', unknownOrders: 'cancel', recovery: { retryDelayMs: 20 },
      leverage: { [SYMBOL]: new Decimal('10') },
    });
    await kernel.start();
    // The leverage changed on the exchange (the risk view reads the account it reported back), and
    // no margin moved doing it: spot still has the 500 left after funding futures.
    expect((await rest.spot.getBalance('USDT')).available.toFixed()).toBe('500');
    expect(kernel.pipeline.risk.leverage(SYMBOL)?.toFixed()).toBe('10');
    expect(kernel.pipeline.risk.futuresConfig(SYMBOL)?.limit_base?.toFixed()).toBe('1000');
    await eventually(() => context.ctx?.position(SYMBOL)?.margin?.exchangeQuantity.toFixed() === '0.2');
    expect(reports[0]).toBe('denied:futures-risk-limit');
    const position = context.ctx!.position(SYMBOL)!;
    expect([position.quantity.toFixed(), position.averagePrice?.toFixed(), position.margin?.leverage.toFixed()]).toEqual(['0.2', '101', '10']);
    expect(position.margin?.entryPrice?.toFixed()).toBe('101');
    // The futures balances, not the spot ones: 500 moved to futures margin, less the fill's margin and fee.
    expect(kernel.adapter.account.balance('USDT')?.reserved_margin?.isPositive()).toBe(true);

    const summary = await kernel.stop('cancel');
    expect(summary.left).toEqual([]);
    expect(summary.canceled).toHaveLength(1);
    // The exchange's truth: no futures order open, the position as the bot books it.
    expect(await rest.futures.getActiveOrders()).toEqual([]);
    const accounts = await rest.futures.getAccounts();
    expect(accounts.flatMap((a) => a.positions ?? []).map((p) => [p.symbol, p.quantity.toFixed()])).toEqual([[SYMBOL, '0.2']]);
  });
});
