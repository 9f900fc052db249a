import { afterEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../framework/model/errors.js';
import type { Intent, PlaceIntent } from '../../framework/model/intent.js';
import maCrossover from '../../strategies/ma-crossover/ma-crossover.strategy.js';
import type { MaCrossoverParams } from '../../strategies/ma-crossover/ma-crossover-params.js';
import { StrategyHarness, T0, orderOf } from './strategy-harness.js';

const PARAMS = { fastPeriod: 2, slowPeriod: 4, average: 'sma', orderQuantity: '0.1' };
const harnesses: StrategyHarness<MaCrossoverParams>[] = [];
afterEach(() => {
  for (const h of harnesses.splice(0)) h.stop();
});

function harness(params: Record<string, unknown> = PARAMS): StrategyHarness<MaCrossoverParams> {
  const h = new StrategyHarness(maCrossover, params);
  harnesses.push(h);
  return h;
}

let minute = 0;
/** Feeds closed (or forming) M1 candles of ETHUSDT, one minute apart; returns the intents they caused. */
function closes(h: StrategyHarness<MaCrossoverParams>, prices: readonly number[], closed = true): Intent[] {
  for (const price of prices) h.candle('ETHUSDT', T0 + 60_000 * minute++, String(price), closed);
  return h.take();
}

function summary(intents: readonly Intent[]): string[] {
  return intents.map((i) => (i.kind === 'place' ? `${i.type} ${i.side} ${i.quantity.toFixed()}` : i.kind));
}

/** The exchange fills a market order completely at `price`. */
function filled(h: StrategyHarness<MaCrossoverParams>, intent: Intent, price: string): void {
  const place = intent as PlaceIntent;
  const order = orderOf(place, place.clientOrderId!, 'filled', h.now());
  h.update(order, 'trade', place.intentId, { quantity: place.quantity.toFixed(), price });
  h.accept(place, [order]);
}

describe('ma crossover', () => {
  it('buys on a golden cross and sells the position on the next death cross', () => {
    const h = harness();
    // Falling: at the 4th close fast 11.5 < slow 12.5 (first comparison, no signal).
    expect(closes(h, [14, 13, 12, 11])).toEqual([]);
    // 15: fast 13 > slow 12.75 -> golden cross.
    const buy = closes(h, [15]);
    expect(summary(buy)).toEqual(['market buy 0.1']);
    expect(buy[0]).toMatchObject({ symbol: 'ETHUSDT', tag: 'golden-cross' });
    filled(h, buy[0]!, '15');
    expect(closes(h, [16])).toEqual([]); // still above: no new signal
    // 5: fast 10.5 < slow 12 -> death cross: sell what is held.
    const sell = closes(h, [5]);
    expect(summary(sell)).toEqual(['market sell 0.1']);
    expect(sell[0]).toMatchObject({ tag: 'death-cross' });
  });

  it('gives no signal before slowPeriod candles, even where the averages already crossed (EMA)', () => {
    const h = harness({ ...PARAMS, average: 'ema' });
    // The EMAs exist from the first close; fast crosses above at the 4th, which is the first comparison.
    expect(closes(h, [14, 13, 12, 20, 21])).toEqual([]);
    expect(summary(closes(h, [5, 25]))).toEqual(['market buy 0.1']);
  });

  it('ignores candles that are not closed and repeated candles', () => {
    const h = harness();
    expect(closes(h, [14, 13, 12, 11, 15, 5, 15], false)).toEqual([]);
    expect(closes(h, [14, 13, 12])).toEqual([]);
    // The same candle again (a snapshot after a reconnect) is not a new close.
    minute--;
    expect(closes(h, [11])).toEqual([]);
    expect(closes(h, [11])).toEqual([]);
    expect(summary(closes(h, [15]))).toEqual(['market buy 0.1']);
  });

  it('when flat a death cross sells only with allowShort', () => {
    const spot = harness();
    expect(closes(spot, [11, 12, 13, 14, 5])).toEqual([]);
    const margin = harness({ ...PARAMS, allowShort: true });
    expect(summary(closes(margin, [11, 12, 13, 14, 5]))).toEqual(['market sell 0.1']);
  });

  it('compares SMAs exactly: equal averages are a tie, not a float residue, and the sign before it stands', () => {
    const h = harness({ ...PARAMS, allowShort: true });
    // 4th close: fast 0.15 > slow 0.08. 6th: window 0.1 0.2 0.15 0.15, fast 0.15 = slow 0.15 exactly
    // (float sums make slow 0.15000000000000002, a false death cross). 7th: fast 0.15 < slow 0.1625.
    expect(closes(h, [0.01, 0.01, 0.1, 0.2, 0.15, 0.15])).toEqual([]);
    expect(summary(closes(h, [0.15]))).toEqual(['market sell 0.1']);
  });

  it('takes a crossing from the last non-zero difference: a touch and return is none, a cross through a tie is one', () => {
    // SMA 2/4. 4th close: window 1 2 3 4, fast 3.5 > slow 2.5. 5th: window 2 3 4 1, fast 2.5 = slow 2.5 (a tie).
    const through = harness({ ...PARAMS, allowShort: true });
    expect(closes(through, [1, 2, 3, 4, 1])).toEqual([]);
    // 6th: window 3 4 1 0, fast 0.5 < slow 2: the last non-zero sign was +, so this is a death cross.
    expect(summary(closes(through, [0]))).toEqual(['market sell 0.1']);
    const touch = harness({ ...PARAMS, allowShort: true });
    expect(closes(touch, [1, 2, 3, 4, 1])).toEqual([]);
    // 6th: window 3 4 1 6, fast 3.5 = slow 3.5 (a tie again); 7th: window 4 1 6 9, fast 7.5 > slow 5: back above, no crossing.
    expect(closes(touch, [6, 9])).toEqual([]);
  });

  it('sends no second order while one is in flight, and trades again after a denial', () => {
    const h = harness();
    closes(h, [14, 13, 12, 11]);
    const [buy] = closes(h, [15]);
    expect(closes(h, [5, 30])).toEqual([]); // death, then golden while the buy has no answer
    h.deny(buy!);
    expect(summary(closes(h, [1, 1, 50]))).toEqual(['market buy 0.1']);
  });
});

describe('ma crossover parameters', () => {
  it('fills defaults', () => {
    expect(maCrossover.parseParams({ orderQuantity: '0.5' })).toMatchObject({ fastPeriod: 5, slowPeriod: 20, average: 'ema', allowShort: false });
  });

  it.each([
    [{ orderQuantity: '1', fastPeriod: 4, slowPeriod: 4 }, 'slowPeriod'],
    [{ orderQuantity: '1', fastPeriod: 30 }, 'slowPeriod'],
    [{ orderQuantity: '1', average: 'wma' }, 'average'],
    [{ orderQuantity: '1', fastPeriod: 0 }, 'fastPeriod'],
    [{}, 'orderQuantity'],
    [{ orderQuantity: '1', allowShort: 'yes' }, 'allowShort'],
  ])('rejects %j naming %s', (raw, field) => {
    let error: unknown;
    try {
      maCrossover.parseParams(raw);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe(field);
  });
});
