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
import { MARGIN_SYMBOLS, startMarginSandbox } from '../backtest/sandbox/support/margin-sandbox-fixture.js';
import { eventually, startedVenuePort, teardownAfterEach } from '../backtest/sandbox/support/sandbox-fixture.js';
import { book } from '../risk/risk-fixtures.js';

const SYMBOL = 'BTCUSDT';
const BTCUSDT = new Instrument(SYMBOL, MARGIN_SYMBOLS[SYMBOL]!);

const teardown = teardownAfterEach();

describe('a live bot on a margin account of the sandbox (real clients, loopback)', () => {
  it('sets its leverage, trades on margin under the margin funds rule, shows the position with its margin, closes it', async () => {
    const started = await startMarginSandbox();
    const { server } = teardown.sandbox(started);
    const rest = started.rest;
    // 500 USDT on the BTCUSDT isolated account at leverage 1; the bot sets 5 itself before trading.
    await rest.margin.updateAccount(SYMBOL, { margin_balance: '500' });
    const clock = new LiveClock();
    const port = await startedVenuePort(teardown, server, rest, 'margin', clock);

    const reports: string[] = [];
    const context: { ctx?: StrategyContext } = {};
    const plugin: StrategyPlugin = {
      name: 'pair', description: 'trades a pair on margin', parseParams: (raw) => raw,
      create: () => ({
        onStart: (ctx) => {
          context.ctx = ctx;
          return [
            // 30 x 99 needs 2970 / 5 + 2.97 = 596.97 of margin: more than the 500 free.
            ctx.place({ symbol: SYMBOL, side: 'buy', type: 'limit', quantity: dec('30'), price: dec('99') }),
            // 10 x 97 needs 970 / 5 + 0.97 = 194.97 of margin: it rests (on spot it would need 970.97, beyond the 500 there).
            ctx.place({ symbol: SYMBOL, side: 'buy', type: 'limit', quantity: dec('10'), price: dec('97') }),
            // A market buy of 0.2 fills at the ask 101.
            ctx.place({ symbol: SYMBOL, side: 'buy', type: 'market', quantity: dec('0.2') }),
          ];
        },
        onReport: (_ctx, report: StrategyReport) => void reports.push(report.kind === 'denied' ? `denied:${report.check}` : report.kind),
      }),
    };
    const books = new ReplaySubject<BookEvent>(1);
    books.next({ kind: 'snapshot', symbol: SYMBOL, sequence: 1, book: book(BTCUSDT, [['101.00', '1.5']], [['99.00', '1']]) });
    const kernel = new BotKernel({
      botId: 'mrg', strategyId: 'pair', plugin, params: {}, instruments: [BTCUSDT], market: { books$: books, market$: new Subject<MarketEvent>() },
      venue: port, clock, schedulers: liveSchedulers(), risk: {}, errorPolicy: 'halt', unknownOrders: 'cancel', recovery: { retryDelayMs: 20 },
      leverage: { [SYMBOL]: new Decimal('5') },
    });
    await kernel.start();
    // The leverage changed on the exchange, and no margin moved doing it: spot keeps its 500.
    expect((await rest.spot.getBalance('USDT')).available.toFixed()).toBe('500');
    expect(kernel.pipeline.risk.leverage(SYMBOL)?.toFixed()).toBe('5');
    await eventually(() => context.ctx?.position(SYMBOL)?.margin?.exchangeQuantity.toFixed() === '0.2');
    expect(reports[0]).toBe('denied:balance');
    const position = context.ctx!.position(SYMBOL)!;
    expect([position.quantity.toFixed(), position.averagePrice?.toFixed(), position.margin?.leverage.toFixed(), position.margin?.marginCurrency]).toEqual(['0.2', '101', '5', 'USDT']);
    expect(position.margin?.entryPrice?.toFixed()).toBe('101');
    // The margin balances, not the spot ones: the position's margin 101 x 0.2 / 5 = 4.04 is reserved.
    expect(kernel.adapter.account.balance('USDT')?.reserved_margin?.toFixed()).toBe('4.04');
    expect((await rest.margin.getActiveOrders()).map((o) => [o.side, o.quantity.toFixed(), o.price?.toFixed()])).toEqual([['buy', '10', '97']]);
    expect(await rest.spot.getActiveOrders()).toEqual([]);

    // Closing the position: a reduce-only market sell of 0.2 at the bid 99.
    context.ctx!.closePosition(SYMBOL);
    await eventually(() => context.ctx?.position(SYMBOL)?.quantity.isZero() === true);
    await eventually(() => context.ctx?.position(SYMBOL)?.margin?.exchangeQuantity.isZero() === true);
    const history = await rest.margin.getPositionHistory();
    // Realized 0.2 x (99 - 101) = -0.4.
    expect(history.map((r) => [r.state, r.pnl?.toFixed()])).toEqual([['closed', '-0.4']]);

    const summary = await kernel.stop('cancel');
    expect(summary.left).toEqual([]);
    expect(summary.canceled).toHaveLength(1);
    expect(await rest.margin.getActiveOrders()).toEqual([]);
  });
});
