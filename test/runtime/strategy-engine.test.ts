import { TestScheduler } from 'rxjs/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { dec } from '../../framework/model/decimal.js';
import type { Intent } from '../../framework/model/intent.js';
import { schedulerClock, virtualSchedulers } from '../../framework/runtime/runtime-ports.js';
import type { OrderHandle } from '../../framework/runtime/order-handle.js';
import { StrategyEngine, type ErrorPolicy } from '../../framework/runtime/strategy-engine.js';
import type { Strategy } from '../../framework/runtime/strategy.js';
import { VirtualClockScheduler } from '../../framework/runtime/virtual-clock-scheduler.js';
import { VirtualClock } from '../../framework/time/clock.js';
import { FakePorts, bookUpdate, orderUpdate, trades } from './runtime-fixtures.js';

const engines: StrategyEngine[] = [];
afterEach(() => {
  for (const engine of engines.splice(0)) engine.stop();
});

function engineOn(scheduler: VirtualClockScheduler | TestScheduler, ports: FakePorts, strategy: Strategy, errorPolicy: ErrorPolicy = 'halt'): StrategyEngine {
  const engine = new StrategyEngine({
    strategyId: 'mm', strategy, params: {}, sink: ports.sink, market: ports.marketSource, account: ports.account,
    clock: schedulerClock(scheduler), schedulers: virtualSchedulers(scheduler), errorPolicy,
  });
  engines.push(engine);
  return engine;
}

/** A strategy that records which handler saw what, in order. */
function recorder(log: string[]): Strategy {
  return {
    onBook: (_ctx, symbol, book) => void log.push(`book:${symbol}:${book.valid}`),
    onTrades: (_ctx, e) => void log.push(`trades:${e.symbol}`),
    onReport: (_ctx, r) => void log.push(`report:${r.kind === 'order' ? r.report.client_order_id : r.kind}`),
    onBalance: (_ctx, b) => void log.push(`balance:${b.length}`),
    onTimer: (ctx, id) => void log.push(`timer:${id}@${ctx.now()}`),
    onCandle: (_ctx, e, closed) => void log.push(`candle:${e.symbol}:${closed}`),
  };
}

describe('StrategyEngine ordering (marble)', () => {
  it('orders equal-time events by kind rank (reports, balances, book, trades, timers) whatever the source order', () => {
    const scheduler = new TestScheduler((a, b) => expect(a).toEqual(b));
    scheduler.run(({ hot, flush }) => {
      const ports = new FakePorts();
      const log: string[] = [];
      const engine = engineOn(scheduler, ports, { ...recorder(log), onStart: (ctx) => ctx.setTimer('t', 3) });
      engine.start();
      // Sources emit in the "wrong" order within frame 3: trades, book, then the report.
      hot('---a', { a: trades('BTCUSDT', 3) }).subscribe(ports.market);
      hot('---b-c', { b: bookUpdate('BTCUSDT', 1), c: bookUpdate('ETHUSDT', 1) }).subscribe(ports.books);
      hot('---r', { r: orderUpdate({ clientOrderId: 'o1', status: 'new' }) }).subscribe(ports.orderReports);
      hot('---w', { w: [] }).subscribe(ports.balances);
      flush();
      expect(log).toEqual(['report:o1', 'balance:0', 'book:BTCUSDT:false', 'trades:BTCUSDT', 'timer:t@3', 'book:ETHUSDT:false']);
    });
  });

  it('conflates book updates per symbol while they wait, keeping the latest and counting the rest', () => {
    const scheduler = new TestScheduler((a, b) => expect(a).toEqual(b));
    scheduler.run(({ hot, flush }) => {
      const ports = new FakePorts();
      const seen: number[] = [];
      const engine = engineOn(scheduler, ports, { onBook: (_ctx, symbol) => void seen.push(symbol === 'BTCUSDT' ? 1 : 2) });
      engine.start();
      const events = { a: bookUpdate('BTCUSDT', 1), b: bookUpdate('BTCUSDT', 2), c: bookUpdate('BTCUSDT', 3), e: bookUpdate('ETHUSDT', 1) };
      hot('--(abce)--a', events).subscribe(ports.books);
      flush();
      expect(seen).toEqual([1, 2, 1]);
      expect(engine.stats.conflatedBooks).toBe(2);
    });
  });

  it('conflates the book updates raised while a slow handler runs', () => {
    const scheduler = new TestScheduler((a, b) => expect(a).toEqual(b));
    scheduler.run(({ hot, flush }) => {
      const ports = new FakePorts();
      let books = 0;
      const engine = engineOn(scheduler, ports, {
        onTrades: () => {
          // Updates that arrive during the handler (synchronously) pile up behind it.
          for (let s = 1; s <= 100; s++) ports.books.next(bookUpdate('BTCUSDT', s));
        },
        onBook: () => void books++,
      });
      engine.start();
      hot('-a', { a: trades('BTCUSDT', 1) }).subscribe(ports.market);
      flush();
      expect(books).toBe(1);
      expect(engine.stats.conflatedBooks).toBe(99);
    });
  });
});

describe('StrategyEngine intents', () => {
  it('sends built orders in call order, then hand-made intents submitted or returned, stamped <strategyId>-<n>, each once', () => {
    const scheduler = new VirtualClockScheduler(new VirtualClock(1000));
    const ports = new FakePorts();
    const spec = { symbol: 'BTCUSDT', side: 'buy', type: 'limit', quantity: dec('1'), price: dec('100') } as const;
    const foreign: Intent = { kind: 'cancelAll', intentId: 'other-9', strategyId: 'other' };
    const handles: (OrderHandle | undefined)[] = [];
    const engine = engineOn(scheduler, ports, {
      onTrades: (ctx) => {
        const a = ctx.place(spec, 'bid');
        // No open order of that id: nothing is sent, no id is used.
        handles.push(a, ctx.cancel('c1'));
        ctx.submit(foreign);
        return [a, foreign];
      },
    });
    engine.start();
    ports.market.next(trades('BTCUSDT', 1000));
    scheduler.flush();
    expect(ports.submitted.map((i) => [i.kind, i.intentId, i.strategyId])).toEqual([['place', 'mm-1', 'mm'], ['cancelAll', 'mm-2', 'mm']]);
    expect(ports.submitted[0]).toMatchObject({ tag: 'bid', price: dec('100'), clientOrderId: 'mm-o1' });
    expect(handles[1]).toBeUndefined();
    expect(handles[0]).toMatchObject({ clientOrderId: 'mm-o1', intentId: 'mm-1', status: 'pendingNew', isOpen: true });
    expect(engine.stats.intents).toBe(2);
  });

  it('sends what a handler built or submitted, in call order and each once, when it returns only handles', () => {
    const scheduler = new VirtualClockScheduler(new VirtualClock(1000));
    const ports = new FakePorts();
    const spec = { symbol: 'BTCUSDT', side: 'buy', type: 'limit', quantity: dec('1'), price: dec('100') } as const;
    const cancelAll: Intent = { kind: 'cancelAll', intentId: 'mm-x', strategyId: 'mm' };
    let turn = 0;
    const engine = engineOn(scheduler, ports, {
      onTrades: (ctx) => {
        turn++;
        if (turn === 1) return [ctx.place(spec, 'one')];
        const bid = ctx.place(spec, 'bid');
        ctx.submit(cancelAll);
        ctx.submit(cancelAll);
        return turn === 2 ? [bid, ctx.place({ ...spec, side: 'sell', price: dec('101') }, 'ask')] : undefined;
      },
    });
    engine.start();
    for (let t = 1; t <= 3; t++) {
      ports.market.next(trades('BTCUSDT', 1000 + t));
      scheduler.flush();
    }
    expect(ports.submitted.map((i) => `${i.kind}:${i.tag ?? ''}`)).toEqual([
      'place:one', 'place:bid', 'cancelAll:', 'place:ask', 'place:bid', 'cancelAll:',
    ]);
    expect(engine.stats.intents).toBe(6);
  });

  it('tells the sink to flush once after each handler\'s last intent, and not after a handler that sent none', () => {
    const scheduler = new VirtualClockScheduler(new VirtualClock(1000));
    const ports = new FakePorts();
    const log: string[] = [];
    ports.onSubmit = (intent) => void log.push(`submit ${intent.intentId}`);
    const spec = { symbol: 'BTCUSDT', side: 'buy', type: 'limit', quantity: dec('1'), price: dec('100') } as const;
    const engine = new StrategyEngine({
      strategyId: 'mm', params: {}, sink: { ...ports.sink, flush: () => void log.push('flush') }, market: ports.marketSource, account: ports.account,
      clock: schedulerClock(scheduler), schedulers: virtualSchedulers(scheduler), errorPolicy: 'halt',
      strategy: {
        onTrades: (ctx) => [ctx.place(spec, 'bid'), ctx.place({ ...spec, side: 'sell', price: dec('101') }, 'ask')],
        onBook: () => undefined,
      },
    });
    engines.push(engine);
    engine.start();
    ports.market.next(trades('BTCUSDT', 1000));
    ports.books.next(bookUpdate('BTCUSDT', 1));
    scheduler.flush();
    expect(log).toEqual(['submit mm-1', 'submit mm-2', 'flush']);
  });

  it('halt policy: a throwing handler stops the strategy, submits cancelAll and cancels orders that show up later', () => {
    const scheduler = new VirtualClockScheduler();
    const ports = new FakePorts();
    const halted: unknown[] = [];
    let calls = 0;
    const engine = new StrategyEngine({
      strategyId: 'mm', params: {}, sink: ports.sink, market: ports.marketSource, account: ports.account,
      clock: scheduler.clock, schedulers: virtualSchedulers(scheduler), errorPolicy: 'halt', onHalt: (e) => halted.push(e),
      strategy: {
        onTrades: (ctx) => {
          calls++;
          ctx.place({ symbol: 'BTCUSDT', side: 'buy', type: 'limit', quantity: dec('1'), price: dec('100') });
          throw new Error('boom');
        },
      },
    });
    engines.push(engine);
    engine.start();
    ports.orderReports.next(orderUpdate({ clientOrderId: 'open-1', status: 'new' }));
    ports.market.next(trades('BTCUSDT', 0));
    scheduler.flush();
    expect(engine.status).toBe('halted');
    expect(halted).toHaveLength(1);
    expect(ports.submitted).toEqual([{ kind: 'cancelAll', intentId: 'mm-2', strategyId: 'mm', tag: 'halt' }]);
    // No more market events reach it; an order that was in flight is cancelled on sight.
    ports.market.next(trades('BTCUSDT', 0));
    ports.orderReports.next(orderUpdate({ clientOrderId: 'open-1', status: 'partiallyFilled', updatedAt: 1 }));
    ports.orderReports.next(orderUpdate({ clientOrderId: 'late-2', status: 'new' }));
    scheduler.flush();
    expect(calls).toBe(1);
    expect(ports.submitted.slice(1)).toEqual([{ kind: 'cancel', clientOrderId: 'late-2', intentId: 'mm-3', strategyId: 'mm', tag: 'halt' }]);
    expect(engine.state.openOrders().map((o) => o.client_order_id).sort()).toEqual(['late-2', 'open-1']);
  });

  it('continue policy: logs, counts, drops the failed handler intents and keeps dispatching', () => {
    const scheduler = new VirtualClockScheduler();
    const ports = new FakePorts();
    let n = 0;
    const engine = engineOn(scheduler, ports, {
      onTrades: (ctx) => {
        n++;
        ctx.submit(ctx.cancelAll());
        if (n === 1) throw new Error('first fails');
        return undefined;
      },
    }, 'continue');
    engine.start();
    ports.market.next(trades('BTCUSDT', 0));
    ports.market.next(trades('BTCUSDT', 0));
    scheduler.flush();
    expect(engine.status).toBe('running');
    expect(engine.stats.errors).toBe(1);
    expect(ports.submitted.map((i) => i.intentId)).toEqual(['mm-2']);
  });

  it('reports raised synchronously by the sink are dispatched after the handler, not inside it', () => {
    const scheduler = new VirtualClockScheduler();
    const ports = new FakePorts();
    const log: string[] = [];
    ports.onSubmit = (intent) => ports.reports.next({ kind: 'denied', intent, check: 'balance', reason: 'x', time: 0 });
    const engine = engineOn(scheduler, ports, {
      onTrades: (ctx) => {
        log.push('trades-start');
        ctx.submit(ctx.cancelAll());
        log.push('trades-end');
      },
      onReport: (_ctx, r) => void log.push(`report:${r.kind}`),
    });
    engine.start();
    ports.market.next(trades('BTCUSDT', 0));
    scheduler.flush();
    expect(log).toEqual(['trades-start', 'trades-end', 'report:denied']);
  });
});

describe('StrategyEngine market state', () => {
  it('forgets a stale book without calling onBook, and tells closed candles apart', () => {
    const scheduler = new VirtualClockScheduler();
    const ports = new FakePorts();
    const log: string[] = [];
    const engine = engineOn(scheduler, ports, recorder(log));
    engine.start();
    ports.books.next(bookUpdate('BTCUSDT', 1));
    scheduler.flush();
    expect(engine.context.book('BTCUSDT')).toBeDefined();
    ports.books.next({ kind: 'stale', symbol: 'BTCUSDT', reason: { kind: 'gap', expected: 2, got: 4 } });
    scheduler.flush();
    expect(engine.context.book('BTCUSDT')).toBeUndefined();
    const candle = { kind: 'candles', channel: 'candles/M1', symbol: 'BTCUSDT', snapshot: false, exchangeTime: 0, receivedAt: 0, period: 'M1', candles: [] } as const;
    ports.market.next(candle);
    ports.candleClosed.next(candle);
    scheduler.flush();
    expect(log).toEqual(['book:BTCUSDT:false', 'candle:BTCUSDT:false', 'candle:BTCUSDT:true']);
  });
});

describe('StrategyEngine timers and lifecycle', () => {
  it('fires timers on virtual time: one-shot, repeating, cleared', () => {
    const scheduler = new VirtualClockScheduler(new VirtualClock(10_000));
    const ports = new FakePorts();
    const log: string[] = [];
    const engine = engineOn(scheduler, ports, {
      onStart: (ctx) => {
        ctx.setTimer('once', 500);
        ctx.setTimer('every', 200, true);
        ctx.setTimer('gone', 100);
        ctx.clearTimer('gone');
      },
      onTimer: (ctx, id) => {
        log.push(`${id}@${ctx.now()}`);
        if (id === 'every' && ctx.now() >= 10_600) ctx.clearTimer('every');
      },
    });
    engine.start();
    scheduler.advanceTo(10_199);
    expect(log).toEqual([]);
    scheduler.advanceTo(11_000);
    expect(log).toEqual(['every@10200', 'every@10400', 'once@10500', 'every@10600']);
    expect(scheduler.clock.now()).toBe(11_000);
  });

  it('stop runs onStop, submits its intents and releases sources and timers', () => {
    const scheduler = new VirtualClockScheduler();
    const ports = new FakePorts();
    const log: string[] = [];
    const engine = engineOn(scheduler, ports, {
      ...recorder(log),
      onStart: (ctx) => ctx.setTimer('t', 100, true),
      onStop: (ctx) => ctx.cancelAll(undefined, 'stop'),
    });
    engine.start();
    engine.stop();
    expect(engine.status).toBe('stopped');
    expect(ports.submitted).toEqual([{ kind: 'cancelAll', intentId: 'mm-1', strategyId: 'mm', tag: 'stop' }]);
    expect(ports.market.observed).toBe(false);
    expect(ports.reports.observed).toBe(false);
    scheduler.advanceTo(1000);
    expect(log).toEqual([]);
    expect(() => engine.start()).toThrow(/status/);
  });
});
