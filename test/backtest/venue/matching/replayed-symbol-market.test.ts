import { describe, expect, it } from 'vitest';
import { ParseError, ValidationError } from '../../../../framework/model/errors.js';
import { ReplayedSymbolMarket } from '../../../../backtest/venue/matching/replayed-symbol-market.js';
import { PROPORTIONAL_QUEUE } from '../../../../backtest/venue/matching/queue-model.js';
import { bookFrame, buyTrade, instrument, marketWith, sellTrade } from './market-fixtures.js';

const maker = (orderKey: number, priceTicks: number, lots: number) => ({ orderKey, priceTicks, lots, taker: false });
const taker = (orderKey: number, priceTicks: number, lots: number) => ({ orderKey, priceTicks, lots, taker: true });

describe('ReplayedSymbolMarket: outside book', () => {
  it('reads best prices and last trade in ticks on the instrument grid', () => {
    const market = new ReplayedSymbolMarket(instrument('0.01', '0.0001'));
    expect([market.bestBidTicks, market.bestAskTicks, market.lastTradeTicks]).toEqual([NaN, NaN, NaN]);
    market.applyBookFrame({
      symbol: 'TEST', sequence: 1, exchangeTime: 1, receivedAt: 1, snapshot: true,
      bids: [['2684.05', '1.5'], ['2684.00', '0.00019']], asks: [['2684.10', '0.2500'], ['2684.105', '3']],
    });
    expect([market.bestBidTicks, market.bestAskTicks]).toEqual([268405, 268410]);
    // Sizes round down to whole lots; a price off the tick grid is skipped and counted.
    expect(market.availableToTake('sell', 268400, 1e9)).toBe(15000 + 1);
    expect(market.availableToTake('buy', undefined, 1e9)).toBe(2500);
    expect(market.offGridLevels).toBe(1);
    market.applyTrades([{ priceTicks: 268407, lots: 3, side: 'buy', time: Number.NaN }, { priceTicks: Number.NaN, lots: 1, side: 'sell', time: Number.NaN }]);
    expect(market.lastTradeTicks).toBe(268407);
  });

  it('refuses malformed level text naming the level, and frames of another symbol', () => {
    const market = new ReplayedSymbolMarket(instrument());
    const bad = { ...bookFrame(true, [], []), asks: [['100', '1'], ['1x1', '2']] as const };
    expect(() => market.applyBookFrame(bad)).toThrow(ParseError);
    expect(() => market.applyBookFrame(bad)).toThrow(/TEST\.a\[1\]\[0\]/);
    expect(() => market.applyBookFrame({ ...bookFrame(true, [], []), symbol: 'OTHER' })).toThrow(ValidationError);
  });

  it('takes from the best level to the limit at each level price', () => {
    const market = marketWith([[99, 5], [98, 5]], [[101, 2], [102, 3], [104, 10]]);
    const result = market.take(1, 'buy', 103, 7);
    expect(result).toEqual({ fills: [taker(1, 101, 2), taker(1, 102, 3)], unfilledLots: 2 });
    expect(market.take(2, 'sell', undefined, 12)).toEqual({ fills: [taker(2, 99, 5), taker(2, 98, 5)], unfilledLots: 2 });
  });

  it('serves a locked book (bid = ask, as the candle rules build at a zero-slippage next open) to takers on both sides at that price', () => {
    const market = marketWith([[99, 5]], [[101, 5]]);
    market.rest(7, 'buy', 100, 2);
    // The locked snapshot crosses the resting buy at its price; what is left serves both sides.
    expect(market.applyBookFrame(bookFrame(true, [[100, 5]], [[100, 5]]))).toEqual([maker(7, 100, 2)]);
    expect(market.take(1, 'buy', undefined, 3)).toEqual({ fills: [taker(1, 100, 3)], unfilledLots: 0 });
    expect(market.take(2, 'sell', undefined, 3)).toEqual({ fills: [taker(2, 100, 3)], unfilledLots: 0 });
  });

  it('keeps taken liquidity taken until the feed updates that level', () => {
    const market = marketWith([[99, 5]], [[101, 2], [102, 3]]);
    market.take(1, 'buy', 102, 4);
    expect(market.availableToTake('buy', 102, 100)).toBe(1);
    expect(market.take(2, 'buy', 102, 4).fills).toEqual([taker(2, 102, 1)]);
    expect(market.wouldTake('buy', 102)).toBe(false);
    // The book still shows the levels (the feed has not spoken): best ask is unchanged.
    expect(market.bestAskTicks).toBe(101);
    market.applyBookFrame(bookFrame(false, [], [[102, 3]]));
    expect(market.availableToTake('buy', 102, 100)).toBe(3);
    market.applyBookFrame(bookFrame(false, [[50, 1]], []));
    expect(market.availableToTake('buy', 102, 100)).toBe(3);
    market.applyBookFrame(bookFrame(true, [], [[101, 2]]));
    expect(market.availableToTake('buy', 102, 100)).toBe(2);
  });

  it('answers post-only, FOK and market-buy reserve questions without consuming', () => {
    const market = marketWith([[99, 5]], [[101, 2], [103, 3]]);
    expect(market.wouldTake('buy', 100)).toBe(false);
    expect(market.wouldTake('buy', 101)).toBe(true);
    expect(market.wouldTake('sell', undefined)).toBe(true);
    expect(market.availableToTake('buy', undefined, 4)).toBe(4);
    expect(market.costToTake('buy', 4)).toBe(2 * 101 + 2 * 103);
    expect(market.costToTake('buy', 6)).toBeUndefined();
    expect(market.costToTake('sell', 5)).toBe(5 * 99);
    expect(market.availableToTake('buy', undefined, 100)).toBe(5);
  });

  it('validates integer inputs', () => {
    const market = marketWith([[99, 5]], [[101, 2]]);
    expect(() => market.take(1, 'buy', 101, 0)).toThrow(ValidationError);
    expect(() => market.take(1, 'buy', 100.5, 1)).toThrow(/limitTicks/);
    expect(() => market.rest(1, 'buy', 0, 1)).toThrow(/priceTicks/);
    expect(() => market.rest(1, 'buy', 99, 1.5)).toThrow(/lots/);
    expect(() => market.availableToTake('buy', undefined, Number.NaN)).toThrow(/maxLots/);
    market.rest(1, 'buy', 99, 1);
    expect(() => market.rest(1, 'buy', 98, 1)).toThrow(/orderKey/);
  });
});

describe('ReplayedSymbolMarket: resting orders', () => {
  it('an order behind 10 lots fills only after more than 10 lots traded at its price', () => {
    const market = marketWith([[100, 10]], [[102, 5]]);
    market.rest(7, 'buy', 100, 4);
    expect(market.queueState(7)).toEqual({ orderKey: 7, side: 'buy', priceTicks: 100, remainingLots: 4, aheadLots: 10 });
    expect(market.applyTrades([sellTrade(100, 6), sellTrade(100, 4)])).toEqual([]);
    expect(market.queueState(7)?.aheadLots).toBe(0);
    // A buy-aggressor trade at our bid price is not selling to us.
    expect(market.applyTrades([buyTrade(100, 50)])).toEqual([]);
    expect(market.applyTrades([sellTrade(100, 1)])).toEqual([maker(7, 100, 1)]);
    expect(market.applyTrades([sellTrade(100, 9)])).toEqual([maker(7, 100, 3)]);
    expect(market.queueState(7)).toBeUndefined();
    expect(market.restingCount).toBe(0);
  });

  it('fills the excess of one trade over the lots ahead, partially', () => {
    const market = marketWith([[99, 1]], [[101, 3]]);
    market.rest(1, 'sell', 101, 5);
    expect(market.applyTrades([buyTrade(101, 5)])).toEqual([maker(1, 101, 2)]);
    expect(market.queueState(1)).toMatchObject({ remainingLots: 3, aheadLots: 0 });
  });

  it('joins at the front when improving the best or on an empty level', () => {
    const market = marketWith([[99, 8]], [[103, 3]]);
    market.rest(1, 'buy', 100, 2);
    market.rest(2, 'sell', 102, 2);
    expect([market.queueState(1)?.aheadLots, market.queueState(2)?.aheadLots]).toEqual([0, 0]);
    expect(market.applyTrades([sellTrade(100, 1), buyTrade(102, 5)])).toEqual([maker(1, 100, 1), maker(2, 102, 2)]);
  });

  it('our orders at one price share a trade in arrival order', () => {
    const market = marketWith([[100, 2]], [[102, 3]]);
    market.rest(1, 'buy', 100, 3);
    market.rest(2, 'buy', 100, 3);
    expect(market.applyTrades([sellTrade(100, 4)])).toEqual([maker(1, 100, 2)]);
    expect(market.applyTrades([sellTrade(100, 3)])).toEqual([maker(1, 100, 1), maker(2, 100, 2)]);
  });

  it('a trade printing through our price fills fully, best price first, whatever its size', () => {
    const market = marketWith([[100, 50], [99, 50]], [[102, 3]]);
    market.rest(1, 'buy', 99, 5);
    market.rest(2, 'buy', 100, 4);
    market.rest(3, 'buy', 98, 4);
    // 98 holds no outside bid: order 3 is at the front there and gets the trade's lot.
    expect(market.applyTrades([sellTrade(98, 1)])).toEqual([maker(2, 100, 4), maker(1, 99, 5), maker(3, 98, 1)]);
    expect(market.queueState(3)).toMatchObject({ remainingLots: 3, aheadLots: 0 });
    market.rest(4, 'sell', 105, 2);
    expect(market.applyTrades([buyTrade(104, 9)])).toEqual([]);
    expect(market.applyTrades([buyTrade(106, 1)])).toEqual([maker(4, 105, 2)]);
  });

  it('a trade the exchange matched before an order rested passes it by, however late the feed brings it', () => {
    const market = marketWith([[100, 0]], [[102, 3]]);
    // Order 1 rested at 1_000 ms, order 2 at 1_010 ms, both at the front of 100, order 3 at 99 at 1_010 ms.
    market.rest(1, 'buy', 100, 2, 1_000);
    market.rest(2, 'buy', 100, 2, 1_010);
    market.rest(3, 'buy', 99, 2, 1_010);
    // Matched at 1_005: only order 1 was on the book; order 2 neither fills nor moves in its queue.
    expect(market.applyTrades([sellTrade(100, 5, 1_005)])).toEqual([maker(1, 100, 2)]);
    // Printed through 99 at 1_005: order 3 was not there; at 1_010 it was (matched in the same millisecond it rested).
    expect(market.applyTrades([sellTrade(98, 1, 1_005)])).toEqual([]);
    expect(market.applyTrades([sellTrade(98, 1, 1_010)])).toEqual([maker(2, 100, 2), maker(3, 99, 2)]);
    // A trade without a time is taken as current.
    market.rest(4, 'sell', 103, 1, 2_000);
    expect(market.applyTrades([buyTrade(104, 1)])).toEqual([maker(4, 103, 1)]);
  });

  it('a crossing book fills at our price, limited to the crossing lots, which are then taken', () => {
    const market = marketWith([[99, 5]], [[101, 5]]);
    market.rest(1, 'buy', 100, 5);
    market.rest(2, 'buy', 100, 5);
    market.rest(3, 'buy', 99, 5);
    expect(market.applyBookFrame(bookFrame(false, [], [[100, 3], [99, 4]]))).toEqual([maker(1, 100, 5), maker(2, 100, 2)]);
    expect(market.availableToTake('buy', 100, 100)).toBe(0);
    // Another level changes: the taken crossing lots stay taken.
    expect(market.applyBookFrame(bookFrame(false, [[98, 1]], []))).toEqual([]);
    // The feed sets 99 again: it crosses 2 and 3 once more.
    expect(market.applyBookFrame(bookFrame(false, [], [[99, 4]]))).toEqual([maker(2, 100, 3), maker(3, 99, 1)]);
    const sells = marketWith([[99, 5]], [[101, 5]]);
    sells.rest(9, 'sell', 100, 2);
    expect(sells.applyBookFrame(bookFrame(true, [[100, 7]], [[102, 1]]))).toEqual([maker(9, 100, 2)]);
    expect(sells.availableToTake('sell', 100, 100)).toBe(5);
  });

  it('cancels ahead clamp the queue (trades-only) and a snapshot counts as an update', () => {
    const market = marketWith([[100, 10]], [[102, 5]]);
    market.rest(1, 'buy', 100, 2);
    market.applyBookFrame(bookFrame(false, [[100, 20]], []));
    expect(market.queueState(1)?.aheadLots).toBe(10);
    market.applyBookFrame(bookFrame(false, [[100, 6]], []));
    expect(market.queueState(1)?.aheadLots).toBe(6);
    market.applyBookFrame(bookFrame(true, [[100, 4]], [[102, 5]]));
    expect(market.queueState(1)?.aheadLots).toBe(4);
    market.applyBookFrame(bookFrame(true, [[99, 4]], [[102, 5]]));
    expect(market.queueState(1)?.aheadLots).toBe(0);
  });

  it('proportional model: cancels not explained by trades advance us by our share', () => {
    const market = marketWith([[100, 10]], [[102, 5]], PROPORTIONAL_QUEUE);
    market.rest(1, 'buy', 100, 2);
    market.applyBookFrame(bookFrame(false, [[100, 20]], []));
    // 10 ahead, 10 behind, 10 cancelled: 5 of them from ahead.
    market.applyBookFrame(bookFrame(false, [[100, 10]], []));
    expect(market.queueState(1)?.aheadLots).toBe(5);
    // A 3-lot trade then the level drops by 3: the trade explains the drop, no double count.
    market.applyTrades([sellTrade(100, 3)]);
    market.applyBookFrame(bookFrame(false, [[100, 7]], []));
    expect(market.queueState(1)?.aheadLots).toBe(2);
    expect(market.applyTrades([sellTrade(100, 3)])).toEqual([maker(1, 100, 1)]);
  });

  it('reduce keeps the queue position, remove and reduce to 0 drop the order', () => {
    const market = marketWith([[100, 10]], [[102, 5]]);
    market.rest(1, 'buy', 100, 5);
    market.applyTrades([sellTrade(100, 4)]);
    market.reduce(1, 2);
    expect(market.queueState(1)).toMatchObject({ remainingLots: 2, aheadLots: 6 });
    expect(() => market.reduce(1, 3)).toThrow(ValidationError);
    expect(() => market.reduce(1, -1)).toThrow(/newRemainingLots/);
    expect(market.applyTrades([sellTrade(100, 9)])).toEqual([maker(1, 100, 2)]);
    market.rest(2, 'buy', 100, 5);
    market.reduce(2, 0);
    market.rest(3, 'sell', 103, 1);
    market.remove(3);
    market.remove(3);
    market.reduce(3, 1);
    expect(market.restingCount).toBe(0);
    expect(market.applyTrades([sellTrade(90, 1), buyTrade(110, 1)])).toEqual([]);
  });
});
