import { Decimal, type Intent, type OrderListHandle, type Strategy, type StrategyContext, type StrategyPlugin, type StrategyReport } from 'tradeloop';
import { bracketOrders } from './bracket-orders.js';
import { parseBracketParams, type BracketParams } from './bracket-params.js';

type Ctx = StrategyContext<BracketParams>;

/**
 * Where a symbol's bracket is:
 * - `idle`: none; the next valid book starts one;
 * - `sending`: the order list is on its way;
 * - `open`: the exchange holds it, the entry is waiting (entry timeout running);
 * - `inPosition`: the entry filled, the exits are live;
 * - `cooldown`: it ended; the next one waits for the cooldown timer.
 */
export type BracketPhase = 'idle' | 'sending' | 'open' | 'inPosition' | 'cooldown';

interface BracketState {
  phase: BracketPhase;
  /** The list's legs: the entry first, then the take-profit and the stop-loss. */
  list?: OrderListHandle;
}

const entryTimer = (symbol: string): string => `entry-timeout:${symbol}`;
const cooldownTimer = (symbol: string): string => `cooldown:${symbol}`;

/**
 * One bracket at a time per symbol (see README.md): a oneTriggerOneCancelOther list of an entry
 * limit buy below the mid, a take-profit and a stop-loss sell. The phase follows the legs'
 * handles: open once the exchange holds the entry, in position once it filled, over once no leg
 * can trade any more; then, after `cooldownMs`, the next one. An entry unfilled after
 * `entryTimeoutMs` is cancelled with its exits. Base left over when a list ended without a
 * complete exit (a partially filled entry cancelled, exits expired) is sold at market, so no
 * position stays unprotected.
 */
export function createBracket(): Strategy<BracketParams> {
  const brackets = new Map<string, BracketState>();

  function stateOf(symbol: string): BracketState {
    let s = brackets.get(symbol);
    if (s === undefined) {
      s = { phase: 'idle' };
      brackets.set(symbol, s);
    }
    return s;
  }

  function enter(ctx: Ctx, symbol: string): void {
    const s = stateOf(symbol);
    const instrument = ctx.instrument(symbol);
    const book = ctx.book(symbol);
    const mid = book?.valid === true ? book.mid() : undefined;
    if (s.phase !== 'idle' || instrument === undefined || mid === undefined) return;
    const orders = bracketOrders(instrument, new Decimal(mid), ctx.params);
    if (orders === undefined) return;
    s.list = ctx.orderList('oneTriggerOneCancelOther', orders, 'bracket');
    s.phase = 'sending';
  }

  /** Moves a symbol's bracket along after a report changed its legs. */
  function follow(ctx: Ctx, symbol: string, s: BracketState): void {
    const list = s.list;
    if (list === undefined) return;
    const entry = list.orders[0];
    if (s.phase === 'sending' && entry?.order !== undefined) {
      s.phase = 'open';
      ctx.setTimer(entryTimer(symbol), ctx.params.entryTimeoutMs);
    }
    // The entry's complete fill activates the exits.
    if (s.phase === 'open' && entry?.status === 'filled') {
      s.phase = 'inPosition';
      ctx.clearTimer(entryTimer(symbol));
    }
    if (!list.isOpen) finish(ctx, symbol, s);
  }

  function finish(ctx: Ctx, symbol: string, s: BracketState): void {
    ctx.clearTimer(entryTimer(symbol));
    s.phase = 'cooldown';
    s.list = undefined;
    ctx.setTimer(cooldownTimer(symbol), ctx.params.cooldownMs);
    const held = ctx.position(symbol)?.quantity;
    const instrument = ctx.instrument(symbol);
    if (held === undefined || instrument === undefined || !held.greaterThan(0)) return;
    const quantity = instrument.roundQuantityDown(held);
    if (quantity.isZero()) return;
    ctx.log('warn', 'bracket ended with base left; selling it at market', { symbol, quantity: quantity.toFixed() });
    ctx.place({ symbol, side: 'sell', type: 'market', quantity }, 'flatten');
  }

  function onReport(ctx: Ctx, report: StrategyReport): void {
    const symbol = report.kind === 'order' ? report.report.symbol : symbolOf(report.intent);
    if (symbol === undefined) return;
    const s = brackets.get(symbol);
    if (s !== undefined && s.list !== undefined) follow(ctx, symbol, s);
  }

  return {
    onBook: (ctx, symbol) => enter(ctx, symbol),
    onReport: (ctx, report) => onReport(ctx, report),
    onTimer: (ctx, timerId) => {
      const [kind, symbol] = timerId.split(':') as [string, string | undefined];
      if (symbol === undefined) return;
      const s = stateOf(symbol);
      if (kind === 'cooldown' && s.phase === 'cooldown') {
        s.phase = 'idle';
        enter(ctx, symbol);
        return;
      }
      // Cancelling every order of the symbol takes the entry and its inactive exits together.
      if (kind === 'entry-timeout' && s.phase === 'open') ctx.cancelAll(symbol, 'entry-timeout');
    },
    onStop: (ctx) => ctx.cancelAll(undefined, 'stop'),
  };
}

/** The symbol an intent concerns, when it names one. */
function symbolOf(intent: Intent): string | undefined {
  switch (intent.kind) {
    case 'place': return intent.symbol;
    case 'orderList': return intent.orders[0]?.symbol;
    case 'closePosition': return intent.symbol;
    case 'cancelAll': return intent.symbol;
    default: return undefined;
  }
}

/** The bracket plugin (`strategy.name: bracket`). */
const bracket: StrategyPlugin<BracketParams> = {
  name: 'bracket',
  // Acts only through its context: the order-path rehearsal may run it (see StrategyPlugin.rehearsable).
  rehearsable: true,
  description: 'Enters with a limit buy below the mid and exits with a take-profit or a stop-loss (oneTriggerOneCancelOther list)',
  parseParams: parseBracketParams,
  create: () => createBracket(),
};

export default bracket;
