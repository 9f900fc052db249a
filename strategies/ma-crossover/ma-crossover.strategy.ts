import { type Decimal, type OrderHandle, type Side, type Strategy, type StrategyContext, type StrategyPlugin, ZERO } from 'tradeloop';
import { CrossoverSignal, type Cross } from './crossover-signal.js';
import { parseMaCrossoverParams, type MaCrossoverParams } from './ma-crossover-params.js';

type Ctx = StrategyContext<MaCrossoverParams>;

/** Per-symbol state: the averages, the last candle used, the latest order. */
interface SymbolState {
  readonly signal: CrossoverSignal;
  lastCandle: number;
  /** The latest market order; a crossing waits until it closed. */
  order?: OrderHandle;
}

/**
 * Trend following on closed candles (see README.md): a golden cross buys `orderQuantity` when
 * flat (covering a short first), a death cross sells the position (and, with `allowShort`, goes
 * short `orderQuantity`). Candle updates that are not closed are ignored, so nothing depends on
 * a price the candle may still revise. Acts on every symbol whose candles it receives.
 */
export function createMaCrossover(params?: MaCrossoverParams): Strategy<MaCrossoverParams> {
  const symbols = new Map<string, SymbolState>();
  const name = (speed: string, period: number | undefined): string =>
    `${speed} ${params === undefined ? 'average' : `${params.average.toUpperCase()} ${period}`}`;
  function stateOf(ctx: Ctx, symbol: string): SymbolState {
    let s = symbols.get(symbol);
    if (s === undefined) {
      const p = ctx.params;
      s = { signal: new CrossoverSignal(p.average, p.fastPeriod, p.slowPeriod), lastCandle: Number.NEGATIVE_INFINITY };
      symbols.set(symbol, s);
    }
    return s;
  }

  function order(ctx: Ctx, symbol: string, cross: Cross): OrderHandle | undefined {
    const s = stateOf(ctx, symbol);
    if (s.order !== undefined && !s.order.isClosed) {
      ctx.log('warn', 'crossing ignored: the previous order is still open', { symbol, cross });
      return undefined;
    }
    const instrument = ctx.instrument(symbol);
    if (instrument === undefined) {
      ctx.log('warn', 'crossing ignored: unknown instrument', { symbol, cross });
      return undefined;
    }
    const p = ctx.params;
    const held = ctx.position(symbol)?.quantity ?? ZERO;
    let side: Side;
    let quantity: Decimal;
    if (cross === 'golden') {
      if (held.isPositive() && !held.isZero()) return undefined;
      side = 'buy';
      quantity = held.neg().plus(p.orderQuantity);
    } else {
      side = 'sell';
      const long = held.isPositive() ? held : ZERO;
      quantity = p.allowShort && !held.isNegative() ? long.plus(p.orderQuantity) : long;
    }
    quantity = instrument.roundQuantityDown(quantity);
    if (quantity.isZero()) return undefined;
    s.order = ctx.place({ symbol, side, type: 'market', quantity }, cross === 'golden' ? 'golden-cross' : 'death-cross');
    return s.order;
  }

  return {
    // Backtest reports draw both averages over the price, as the strategy knew them at each close.
    indicators: [
      { id: 'fast', label: name('fast', params?.fastPeriod), pane: 'price', color: '#f9a825' },
      { id: 'slow', label: name('slow', params?.slowPeriod), pane: 'price', color: '#6a1b9a' },
    ],
    onCandle: (ctx, event, closed) => {
      if (!closed) return [];
      const s = stateOf(ctx, event.symbol);
      const out: OrderHandle[] = [];
      const candles = event.candles.length === 1 ? event.candles : [...event.candles].sort((a, b) => a.timestamp - b.timestamp);
      for (const candle of candles) {
        // A repeated candle (snapshot after a reconnect) must not count twice.
        if (candle.timestamp <= s.lastCandle) continue;
        s.lastCandle = candle.timestamp;
        const cross = s.signal.add(candle.close);
        const { fast, slow } = s.signal.lines;
        if (fast !== null) ctx.recordIndicator('fast', event.symbol, fast);
        if (slow !== null) ctx.recordIndicator('slow', event.symbol, slow);
        if (cross === undefined) continue;
        const placed = order(ctx, event.symbol, cross);
        if (placed !== undefined) out.push(placed);
      }
      return out;
    },
  };
}

/** The moving-average crossover plugin (`strategy.name: ma-crossover`). */
const maCrossover: StrategyPlugin<MaCrossoverParams> = {
  name: 'ma-crossover',
  // Acts only through its context: the order-path rehearsal may run it (see StrategyPlugin.rehearsable).
  rehearsable: true,
  description: 'Buys on a golden cross and sells on a death cross of two moving averages of closed candles',
  parseParams: parseMaCrossoverParams,
  create: (params) => createMaCrossover(params),
};

export default maCrossover;
