import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ReplaySubject, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { BookEvent } from '../../framework/exchange/book/book-event.js';
import { Decimal, dec } from '../../framework/model/decimal.js';
import { Journal } from '../../framework/live/journal.js';
import { Instrument } from '../../framework/model/instrument.js';
import type { OrderReport } from '../../framework/model/stream/order-report.js';
import type { MarketEvent } from '../../framework/model/stream/market-events.js';
import { BotKernel } from '../../framework/runtime/bot-kernel.js';
import { liveSchedulers, type RuntimeLogger } from '../../framework/runtime/runtime-ports.js';
import type { StrategyContext, StrategyPlugin } from '../../framework/runtime/strategy.js';
import { LiveClock } from '../../framework/time/clock.js';
import { PERP_INFO, perpBook, startFuturesSandbox } from '../backtest/sandbox/support/futures-sandbox-fixture.js';
import { eventually, startedVenuePort, teardownAfterEach } from '../backtest/sandbox/support/sandbox-fixture.js';
import { book } from '../risk/risk-fixtures.js';

const SYMBOL = 'BTCUSDT_PERP';
const PERP = new Instrument(SYMBOL, PERP_INFO);

const teardown = teardownAfterEach();

describe('a live bot on a futures account of the sandbox sees its position liquidated (real clients, loopback)', () => {
  it('books the forced close from the trading stream: the position goes flat as on the exchange, the strategy is told', async () => {
    const started = await startFuturesSandbox({
      futures: {
        configs: [{
          symbol: SYMBOL, margin_call_leverage_mul: new Decimal('1.5'), liquidation_leverage_mul: new Decimal('2'), max_initial_leverage: new Decimal('20'),
          margin_mode: 'isolated', force_close_fee: new Decimal('0.001'), enabled: true, active: true,
        }],
      },
    });
    const { server } = teardown.sandbox(started);
    const { rest, market } = started;
    await rest.futures.updateAccount(SYMBOL, { margin_balance: '15' });
    const clock = new LiveClock();
    const port = await startedVenuePort(teardown, server, rest, 'futures', clock);

    const liquidations: { report: OrderReport; position: string | undefined }[] = [];
    const context: { ctx?: StrategyContext } = {};
    const plugin: StrategyPlugin = {
      name: 'perp', description: 'buys a perpetual once', parseParams: (raw) => raw,
      create: () => ({
        onStart: (ctx) => {
          context.ctx = ctx;
          return ctx.place({ symbol: SYMBOL, side: 'buy', type: 'market', quantity: dec('1') });
        },
        onReport: (ctx, report) => {
          if (report.kind === 'order' && report.report.liquidation === true) liquidations.push({ report: report.report, position: ctx.position(SYMBOL)?.quantity.toFixed() });
          return [];
        },
      }),
    };
    const warnings: string[] = [];
    const logger: RuntimeLogger = { log: (level, message) => void (level === 'warn' && warnings.push(message)) };
    const journalDir = mkdtempSync(path.join(tmpdir(), 'tradeloop-liquidation-journal-'));
    teardown.add(() => rmSync(journalDir, { recursive: true, force: true }));
    const journal = new Journal({ dir: journalDir, botId: 'fut', durable: false, now: () => Date.now() });
    journal.open();
    teardown.add(() => journal.close());
    const books = new ReplaySubject<BookEvent>(1);
    books.next({ kind: 'snapshot', symbol: SYMBOL, sequence: 1, book: book(PERP, [['101.0', '2']], [['99.0', '2']]) });
    const kernel = new BotKernel({
      botId: 'fut', strategyId: 'perp', plugin, params: {}, instruments: [PERP], market: { books$: books, market$: new Subject<MarketEvent>() },
      venue: port, clock, schedulers: liveSchedulers(), risk: {}, errorPolicy: 'halt', unknownOrders: 'cancel', recovery: { retryDelayMs: 20 },
      leverage: { [SYMBOL]: new Decimal('20') }, logger, hooks: journal,
    });
    teardown.add(async () => void (await kernel.stop('cancel').catch(() => undefined)));
    await kernel.start();
    await eventually(() => context.ctx?.position(SYMBOL)?.quantity.toFixed() === '1');
    const [held] = (await rest.futures.getAccounts()).flatMap((a) => a.positions ?? []);

    // Oracle: bought 1 at the ask 101, taker fee 0.0005 x 101 = 0.0505: cash 15 - 0.0505 = 14.9495.
    // The mark falls to the mid (86 + 88) / 2 = 87: margin balance 14.9495 + (87 - 101) = 0.9495 is below
    // the maintenance margin 87 / (20 x 2) = 2.175: closed at 87, realizing -14, force-close fee
    // 0.001 x 87 = 0.087; cash left 0.9495 - 0.087 = 0.8625.
    market.push(perpBook(2, ['86.0', '88.0']));
    await eventually(() => liquidations.length === 1);
    const [seen] = liquidations;
    expect(seen?.report).toMatchObject({ client_order_id: `liquidation-${held?.id}`, side: 'sell', status: 'filled', report_type: 'trade', trade_position_id: held?.id });
    expect([seen?.report.trade_quantity?.toFixed(), seen?.report.trade_price?.toFixed(), seen?.report.trade_fee?.toFixed()]).toEqual(['1', '87', '0.087']);
    // Booked before the strategy heard it: flat, the loss realized at the liquidation's price.
    expect(seen?.position).toBe('0');
    const position = context.ctx!.position(SYMBOL)!;
    expect([position.quantity.toFixed(), position.realizedPnl.toFixed()]).toEqual(['0', '-14']);
    expect(kernel.adapter.account.positions.flow('perp', 'USDT').toFixed()).toBe('-14.1375');
    expect(warnings).toContain('position liquidated');
    // The journal holds it as a finished order of the strategy with its execution (a restart books it again).
    const journaled = journal.recover().orders.find((o) => o.info.clientOrderId === seen?.report.client_order_id);
    expect([journaled?.info.strategyId, journaled?.info.liquidation, journaled?.finished, journaled?.final?.status]).toEqual(['perp', true, true, 'filled']);
    expect(journaled?.fills.map((f) => [f.quantity.toFixed(), f.price.toFixed(), f.fee.toFixed()])).toEqual([['1', '87', '0.087']]);

    // The exchange's account agrees: no position left, and the balance the bot holds is the exchange's.
    const accounts = await rest.futures.getAccounts();
    expect(accounts.flatMap((a) => a.positions ?? []).filter((p) => !p.quantity.isZero())).toEqual([]);
    const exchange = await rest.futures.getBalance('USDT');
    await eventually(() => {
      const bot = kernel.adapter.account.balance('USDT');
      return bot !== undefined && bot.available.equals(exchange.available) && bot.reserved.equals(exchange.reserved);
    });
    expect(exchange.available.plus(exchange.reserved).toFixed()).toBe('0.8625');
    const [trade] = (await rest.futures.getTradeHistory()).filter((t) => t.liquidation === true);
    expect([trade?.client_order_id, trade?.price.toFixed(), trade?.fee.toFixed()]).toEqual([seen?.report.client_order_id, '87', '0.087']);
  });
});
