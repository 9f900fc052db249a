import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Side } from '../../../../framework/model/instrument.js';
import type { MatchFill } from '../../../../backtest/venue/matching/market-port.js';
import { PROPORTIONAL_QUEUE, TRADES_ONLY_QUEUE, type QueueModel } from '../../../../backtest/venue/matching/queue-model.js';
import { bookFrame, marketWith, scaledBookFrame, type Levels } from './market-fixtures.js';

type Op =
  | { readonly kind: 'frame'; readonly snapshot: boolean; readonly bids: Levels; readonly asks: Levels }
  | { readonly kind: 'trades'; readonly trades: readonly { priceTicks: number; lots: number; side: Side; time: number }[] }
  | { readonly kind: 'take'; readonly side: Side; readonly limit: number | undefined; readonly lots: number }
  | { readonly kind: 'rest'; readonly side: Side; readonly price: number; readonly lots: number }
  | { readonly kind: 'remove'; readonly pick: number }
  | { readonly kind: 'reduce'; readonly pick: number; readonly keep: number };

const price = fc.integer({ min: 95, max: 105 });
const side = fc.constantFrom<Side>('buy', 'sell');
const levels = fc.array(fc.tuple(price, fc.integer({ min: 0, max: 10 })), { maxLength: 6 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('frame' as const), snapshot: fc.integer({ min: 0, max: 7 }).map((n) => n === 0), bids: levels, asks: levels }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('trades' as const), trades: fc.array(fc.record({ priceTicks: price, lots: fc.integer({ min: 0, max: 8 }), side, time: fc.constant(Number.NaN) }), { minLength: 1, maxLength: 3 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('take' as const), side, limit: fc.option(price, { nil: undefined }), lots: fc.integer({ min: 1, max: 25 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('rest' as const), side, price, lots: fc.integer({ min: 1, max: 8 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reduce' as const), pick: fc.nat(), keep: fc.nat() }) },
);
const initial = fc.tuple(
  fc.array(fc.tuple(fc.integer({ min: 95, max: 100 }), fc.integer({ min: 1, max: 10 })), { maxLength: 5 }),
  fc.array(fc.tuple(fc.integer({ min: 101, max: 105 }), fc.integer({ min: 1, max: 10 })), { maxLength: 5 }),
);
const queueModel = fc.constantFrom(TRADES_ONLY_QUEUE, PROPORTIONAL_QUEUE);

type BookSide = 'bid' | 'ask';

/** What the feed shows and what our orders took from it, kept the naive way (maps by price). */
class NaiveBook {
  readonly shown = { bid: new Map<number, number>(), ask: new Map<number, number>() };
  readonly taken = { bid: new Map<number, number>(), ask: new Map<number, number>() };

  apply(snapshot: boolean, bids: Levels, asks: Levels): void {
    if (snapshot) for (const m of [this.shown.bid, this.shown.ask, this.taken.bid, this.taken.ask]) m.clear();
    for (const [p, q] of bids) this.set('bid', p, q);
    for (const [p, q] of asks) this.set('ask', p, q);
  }

  private set(s: BookSide, p: number, q: number): void {
    if (q === 0) this.shown[s].delete(p);
    else this.shown[s].set(p, q);
    this.taken[s].delete(p);
  }

  available(s: BookSide, p: number): number {
    return (this.shown[s].get(p) ?? 0) - (this.taken[s].get(p) ?? 0);
  }

  /** Untaken lots within the limit of a taker of `takerSide`. */
  within(takerSide: Side, limit: number | undefined): number {
    const s = takerSide === 'buy' ? 'ask' : 'bid';
    let total = 0;
    for (const p of this.shown[s].keys()) if (limit === undefined || (takerSide === 'buy' ? p <= limit : p >= limit)) total += this.available(s, p);
    return total;
  }

  /** Takes `lots` best level first up to `limit`; returns what was left unfilled. */
  takeThrough(s: BookSide, limit: number, lots: number): number {
    const prices = [...this.shown[s].keys()].sort((a, b) => (s === 'ask' ? a - b : b - a));
    let left = lots;
    for (const p of prices) {
      if (left === 0 || (s === 'ask' ? p > limit : p < limit)) break;
      const here = Math.min(left, this.available(s, p));
      this.take(s, p, here);
      left -= here;
    }
    return left;
  }

  take(s: BookSide, p: number, lots: number): void {
    this.taken[s].set(p, (this.taken[s].get(p) ?? 0) + lots);
  }
}

interface Live {
  readonly side: Side;
  readonly price: number;
  remaining: number;
}

/** Runs `ops` checking every invariant; returns everything observable, for determinism checks. */
function run(bids: Levels, asks: Levels, ops: readonly Op[], model: QueueModel): unknown[] {
  const market = marketWith(bids, asks, model);
  const naive = new NaiveBook();
  naive.apply(true, bids, asks);
  const live = new Map<number, Live>();
  const seen: unknown[] = [];
  let nextKey = 1;

  const bookMakerFills = (fills: readonly MatchFill[]): void => {
    for (const fill of fills) {
      const order = live.get(fill.orderKey);
      expect(order, 'fills only resting orders').toBeDefined();
      expect(fill.taker).toBe(false);
      expect(fill.priceTicks, 'a resting order fills at its own price').toBe(order!.price);
      expect(Number.isInteger(fill.lots) && fill.lots > 0 && fill.lots <= order!.remaining).toBe(true);
      order!.remaining -= fill.lots;
      if (order!.remaining === 0) live.delete(fill.orderKey);
    }
  };

  for (const o of ops) {
    switch (o.kind) {
      case 'frame': {
        const fills = market.applyBookFrame(bookFrame(o.snapshot, o.bids, o.asks));
        naive.apply(o.snapshot, o.bids, o.asks);
        for (const f of fills) {
          // A crossing fill takes untaken liquidity at or through our price: it must have been there.
          const against = live.get(f.orderKey)?.side === 'buy' ? 'ask' : 'bid';
          expect(naive.takeThrough(against, f.priceTicks, f.lots), 'crossing fill backed by the book').toBe(0);
        }
        bookMakerFills(fills);
        seen.push(fills);
        break;
      }
      case 'trades': {
        const fills = market.applyTrades(o.trades);
        if (o.trades.length === 1) {
          const t = o.trades[0]!;
          const atPrice = fills.filter((f) => f.priceTicks === t.priceTicks).reduce((n, f) => n + f.lots, 0);
          expect(atPrice, 'a trade at our price fills at most its size').toBeLessThanOrEqual(t.lots);
          for (const f of fills) expect(t.side === 'sell' ? f.priceTicks >= t.priceTicks : f.priceTicks <= t.priceTicks).toBe(true);
        }
        bookMakerFills(fills);
        expect(market.lastTradeTicks).toBe(o.trades[o.trades.length - 1]!.priceTicks);
        seen.push(fills);
        break;
      }
      case 'take': {
        const book = o.side === 'buy' ? 'ask' : 'bid';
        const available = market.availableToTake(o.side, o.limit, o.lots);
        expect(available).toBe(Math.min(o.lots, naive.within(o.side, o.limit)));
        expect(market.wouldTake(o.side, o.limit)).toBe(naive.within(o.side, o.limit) > 0);
        const cost = market.costToTake(o.side, o.lots);
        const result = market.take(nextKey, o.side, o.limit, o.lots);
        let filled = 0;
        let costSum = 0;
        let previous = o.side === 'buy' ? -Infinity : Infinity;
        for (const fill of result.fills) {
          expect(fill).toMatchObject({ orderKey: nextKey, taker: true });
          if (o.limit !== undefined) expect(o.side === 'buy' ? fill.priceTicks <= o.limit : fill.priceTicks >= o.limit).toBe(true);
          expect(o.side === 'buy' ? fill.priceTicks > previous : fill.priceTicks < previous, 'best level first, each once').toBe(true);
          expect(fill.lots).toBeGreaterThan(0);
          expect(fill.lots, 'never more than the untaken lots of a level that exists').toBeLessThanOrEqual(naive.available(book, fill.priceTicks));
          naive.take(book, fill.priceTicks, fill.lots);
          previous = fill.priceTicks;
          filled += fill.lots;
          costSum += fill.lots * fill.priceTicks;
        }
        expect(filled, 'FOK availability is what take fills').toBe(available);
        expect(result.unfilledLots).toBe(o.lots - filled);
        if (o.limit === undefined) expect(cost).toEqual(filled === o.lots ? costSum : undefined);
        nextKey++;
        seen.push(result);
        break;
      }
      case 'rest': {
        market.rest(nextKey, o.side, o.price, o.lots);
        expect(market.queueState(nextKey)!.aheadLots).toBe(naive.available(o.side === 'buy' ? 'bid' : 'ask', o.price));
        live.set(nextKey++, { side: o.side, price: o.price, remaining: o.lots });
        break;
      }
      case 'remove':
      case 'reduce': {
        const keys = [...live.keys()];
        if (keys.length === 0) break;
        const key = keys[o.pick % keys.length]!;
        const order = live.get(key)!;
        const before = market.queueState(key)!;
        if (o.kind === 'remove') {
          market.remove(key);
          live.delete(key);
          expect(market.queueState(key)).toBeUndefined();
        } else {
          const keep = o.keep % (order.remaining + 1);
          market.reduce(key, keep);
          order.remaining = keep;
          if (keep === 0) live.delete(key);
          else expect(market.queueState(key)!.aheadLots, 'reduce keeps the queue position').toBe(before.aheadLots);
        }
        break;
      }
    }
    expect(market.restingCount).toBe(live.size);
    for (const [key, order] of live) {
      const state = market.queueState(key)!;
      expect(state).toMatchObject({ side: order.side, priceTicks: order.price, remainingLots: order.remaining });
      expect(Number.isInteger(state.aheadLots) && state.aheadLots >= 0).toBe(true);
      seen.push(state);
    }
  }
  return seen;
}

describe('ReplayedSymbolMarket properties', () => {
  it('fills never beat the book, taken lots are not taken twice, the order ledger stays consistent (both queue models)', () => {
    fc.assert(fc.property(initial, fc.array(op, { maxLength: 60 }), queueModel, ([bids, asks], ops, model) => {
      run(bids, asks, ops, model);
    }), { numRuns: 300 });
  });

  it('is deterministic: the same inputs give the same fills and queue states', () => {
    fc.assert(fc.property(initial, fc.array(op, { maxLength: 40 }), queueModel, ([bids, asks], ops, model) => {
      expect(run(bids, asks, ops, model)).toEqual(run(bids, asks, ops, model));
    }), { numRuns: 100 });
  });

  it('an order behind N lots fills exactly the traded lots beyond N, up to its size (both models)', () => {
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 30 }), fc.integer({ min: 1, max: 20 }), fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 12 }), queueModel,
      (ahead, size, trades, model) => {
        const market = marketWith(ahead === 0 ? [] : [[100, ahead]], [[101, 5]], model);
        market.rest(1, 'buy', 100, size);
        let traded = 0;
        let filled = 0;
        for (const lots of trades) {
          traded += lots;
          for (const fill of market.applyTrades([{ priceTicks: 100, lots, side: 'sell', time: Number.NaN }])) filled += fill.lots;
          expect(filled).toBe(Math.min(size, Math.max(0, traded - ahead)));
        }
      },
    ), { numRuns: 300 });
  });

  it('scaled book frames move the book, our queues and our fills exactly as their texts do', () => {
    const step = fc.oneof(
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('frame' as const), snapshot: fc.integer({ min: 0, max: 7 }).map((n) => n === 0), bids: levels, asks: levels }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('rest' as const), side, price, lots: fc.integer({ min: 1, max: 8 }) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('trade' as const), side, price, lots: fc.integer({ min: 1, max: 8 }) }) },
    );
    fc.assert(fc.property(initial, fc.array(step, { maxLength: 30 }), queueModel, ([bids, asks], steps, model) => {
      const fromText = marketWith(bids, asks, model);
      const fromScaled = marketWith(bids, asks, model);
      let key = 1;
      for (const s of steps) {
        if (s.kind === 'frame') {
          expect(fromScaled.applyBookFrame(scaledBookFrame(s.snapshot, s.bids, s.asks))).toEqual(fromText.applyBookFrame(bookFrame(s.snapshot, s.bids, s.asks)));
        } else if (s.kind === 'rest') {
          fromText.rest(key, s.side, s.price, s.lots);
          fromScaled.rest(key, s.side, s.price, s.lots);
          key++;
        } else {
          const trade = [{ priceTicks: s.price, lots: s.lots, side: s.side, time: Number.NaN }];
          expect(fromScaled.applyTrades(trade)).toEqual(fromText.applyTrades(trade));
        }
        for (let k = 1; k < key; k++) expect(fromScaled.queueState(k)).toEqual(fromText.queueState(k));
        expect([fromScaled.bestBidTicks, fromScaled.bestAskTicks]).toEqual([fromText.bestBidTicks, fromText.bestAskTicks]);
        for (const taker of ['buy', 'sell'] as const) expect(fromScaled.availableToTake(taker, undefined, 1000)).toBe(fromText.availableToTake(taker, undefined, 1000));
      }
    }), { numRuns: 300 });
  });

  it('the proportional model never leaves us further back than the trades-only model', () => {
    const step = fc.oneof(
      fc.integer({ min: 0, max: 30 }).map((lots) => ({ book: lots })),
      fc.integer({ min: 1, max: 6 }).map((lots) => ({ trade: lots })),
    );
    fc.assert(fc.property(fc.array(step, { maxLength: 20 }), (steps) => {
      const markets = [TRADES_ONLY_QUEUE, PROPORTIONAL_QUEUE].map((m) => marketWith([[100, 15]], [[101, 5]], m));
      for (const market of markets) market.rest(1, 'buy', 100, 1000);
      for (const s of steps) {
        for (const market of markets) {
          if ('book' in s) market.applyBookFrame(bookFrame(false, [[100, s.book]], []));
          else market.applyTrades([{ priceTicks: 100, lots: s.trade, side: 'sell', time: Number.NaN }]);
        }
        const [conservative, proportional] = markets.map((m) => m.queueState(1)!);
        expect(proportional!.aheadLots).toBeLessThanOrEqual(conservative!.aheadLots);
        expect(proportional!.remainingLots).toBeLessThanOrEqual(conservative!.remainingLots);
      }
    }), { numRuns: 300 });
  });
});
