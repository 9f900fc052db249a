import { Decimal, type OrderHandle, type PositionView, type Side, type Strategy, type StrategyContext, type StrategyPlugin, ZERO } from 'tradeloop';
import { parsePerpMakerParams, type PerpMakerParams } from './perp-maker-params.js';

type Ctx = StrategyContext<PerpMakerParams>;

const BPS = new Decimal(10_000);

/** The two quotes of a symbol: the order handle of each side while one is working. */
interface Quotes {
  bid?: OrderHandle;
  ask?: OrderHandle;
}

/**
 * A market maker for perpetual contracts on a futures account (see README.md): a post-only bid and
 * ask around the mid, skewed against the position, within a position limit both ways; when the
 * exchange's liquidation price of the position comes nearer the mid than `minLiquidationDistance`,
 * only the side that reduces the position is quoted, reduce-only, until the distance is back.
 * Leverage is the account's (`bot.leverage` sets it before the strategy starts).
 */
export function createPerpMaker(): Strategy<PerpMakerParams> {
  const quotes = new Map<string, Quotes>();

  function requote(ctx: Ctx, symbol: string, midText: string | undefined): void {
    const instrument = ctx.instrument(symbol);
    if (midText === undefined || instrument === undefined) return;
    const p = ctx.params;
    const mid = new Decimal(midText);
    const position = ctx.position(symbol);
    const held = position?.quantity ?? ZERO;
    const quantity = instrument.roundQuantityDown(p.orderQuantity);
    if (quantity.isZero()) return;
    const cornered = nearLiquidation(position, mid, p.minLiquidationDistance);
    // A long is skewed down (sell sooner, buy later), a short up.
    const skew = p.skewBps.times(held).dividedBy(p.maxPosition);
    const bidAllowed = held.plus(quantity).lessThanOrEqualTo(p.maxPosition) && !(cornered && !held.isNegative());
    const askAllowed = held.minus(quantity).negated().lessThanOrEqualTo(p.maxPosition) && !(cornered && !held.isPositive());
    const state = quotes.get(symbol) ?? {};
    quotes.set(symbol, state);
    const bidPrice = instrument.roundPricePassive('buy', mid.times(BPS.minus(p.halfSpreadBps).minus(skew)).dividedBy(BPS));
    const askPrice = instrument.roundPricePassive('sell', mid.times(BPS.plus(p.halfSpreadBps).minus(skew)).dividedBy(BPS));
    state.bid = keep(ctx, symbol, 'buy', state.bid, bidAllowed, bidPrice, cornered ? Decimal.min(quantity, held.negated()) : quantity, cornered, instrument.info.tick_size);
    state.ask = keep(ctx, symbol, 'sell', state.ask, askAllowed, askPrice, cornered ? Decimal.min(quantity, held) : quantity, cornered, instrument.info.tick_size);
  }

  /** One side's quote brought to its target: placed, moved (a replace), or canceled; a quote awaiting an answer is left alone. */
  function keep(
    ctx: Ctx, symbol: string, side: Side, handle: OrderHandle | undefined, allowed: boolean, price: Decimal, quantity: Decimal, reduceOnly: boolean, tick: Decimal,
  ): OrderHandle | undefined {
    const working = handle !== undefined && handle.isOpen ? handle : undefined;
    if (working !== undefined && working.status !== 'open') return working;
    if (!allowed || !quantity.isPositive()) {
      if (working !== undefined) ctx.cancel(working, 'side-off');
      return working;
    }
    if (working === undefined) {
      return ctx.place({ symbol, side, type: 'limit', quantity, price, postOnly: true, timeInForce: 'GTC', reduceOnly: reduceOnly ? true : undefined }, 'quote');
    }
    const moved = working.price === undefined || working.price.minus(price).abs().greaterThanOrEqualTo(tick.times(ctx.params.requoteTicks));
    // A quote that must turn reduce-only (or stop being so) is placed anew: a replace keeps its flags.
    if ((working.order?.reduce_only === true) !== reduceOnly) {
      ctx.cancel(working, 'reduce-only');
      return working;
    }
    if (moved || !working.quantity.equals(quantity)) return ctx.replace(working, quantity, price, 'requote') ?? working;
    return working;
  }

  return {
    onBook: (ctx, symbol, book) => requote(ctx, symbol, book.mid()),
    onStop: (ctx) => ctx.cancelAll(undefined, 'stop'),
  };
}

/** Whether the exchange's liquidation price of the position is nearer the mid than `min` (a fraction of the mid). */
function nearLiquidation(position: PositionView | undefined, mid: Decimal, min: Decimal): boolean {
  const liquidation = position?.margin?.liquidationPrice;
  if (liquidation === undefined || position === undefined || position.quantity.isZero()) return false;
  return mid.minus(liquidation).abs().dividedBy(mid).lessThan(min);
}

/** The perpetual market-maker plugin (`strategy.name: perp-maker`). */
const perpMaker: StrategyPlugin<PerpMakerParams> = {
  name: 'perp-maker',
  // Acts only through its context: the order-path rehearsal may run it (see StrategyPlugin.rehearsable).
  rehearsable: true,
  description: 'Quotes a perpetual contract with leverage: post-only bid and ask skewed by position, reduce-only near liquidation',
  parseParams: parsePerpMakerParams,
  create: () => createPerpMaker(),
};

export default perpMaker;
