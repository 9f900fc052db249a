import { Decimal, type Intent, type Order, type Strategy, type StrategyContext, type StrategyPlugin, type StrategyReport } from 'tradeloop';
import { bracketOrders } from './bracket-orders.js';
import { parseBracketParams, type BracketParams } from './bracket-params.js';

type Ctx = StrategyContext<BracketParams>;

/**
 * Where a symbol's bracket is:
 * - `idle`: none; the next valid book starts one;
 * - `sending`: the order list is in flight;
 * - `open`: placed, the entry is waiting (entry timeout running);
 * - `inPosition`: the entry filled, the exits are live;
 * - `cooldown`: it ended; the next one waits for the cooldown timer.
 */
export type BracketPhase = 'idle' | 'sending' | 'open' | 'inPosition' | 'cooldown';

interface BracketState {
  phase: BracketPhase;
  /** intentId of the list; every order of the list carries it. */
  intentId?: string;
  /** client_order_ids of the list's orders, once known. */
  orderIds: Set<string>;
  /** True once the exchange accepted the list (all its ids are known). */
  accepted: boolean;
  /** True once the entry filled completely (its report may overtake the list's answer). */
  entryFilled: boolean;
}

const entryTimer = (symbol: string): string => `entry-timeout:${symbol}`;
const cooldownTimer = (symbol: string): string => `cooldown:${symbol}`;

/**
 * One bracket at a time per symbol (see README.md): a oneTriggerOneCancelOther list of an entry
 * limit buy below the mid, a take-profit and a stop-loss sell. The state follows the reports:
 * the list ends when none of its orders is open any more; then, after `cooldownMs`, the next one.
 * An entry unfilled after `entryTimeoutMs` is cancelled with its exits. Base left over when a
 * list ended without a complete exit (a partially filled entry cancelled, exits expired) is sold
 * at market, so no position stays unprotected.
 */
export function createBracket(): Strategy<BracketParams> {
  const brackets = new Map<string, BracketState>();

  function stateOf(symbol: string): BracketState {
    let s = brackets.get(symbol);
    if (s === undefined) {
      s = { phase: 'idle', orderIds: new Set(), accepted: false, entryFilled: false };
      brackets.set(symbol, s);
    }
    return s;
  }

  function enter(ctx: Ctx, symbol: string): Intent | undefined {
    const s = stateOf(symbol);
    const instrument = ctx.instrument(symbol);
    const book = ctx.book(symbol);
    const mid = book?.valid === true ? book.mid() : undefined;
    if (s.phase !== 'idle' || instrument === undefined || mid === undefined) return undefined;
    const orders = bracketOrders(instrument, new Decimal(mid), ctx.params);
    if (orders === undefined) return undefined;
    const intent = ctx.orderList('oneTriggerOneCancelOther', orders, 'bracket');
    Object.assign(s, { phase: 'sending', intentId: intent.intentId, orderIds: new Set(), accepted: false, entryFilled: false });
    return intent;
  }

  function track(ctx: Ctx, symbol: string, s: BracketState, orders: readonly Order[]): Intent[] {
    for (const o of orders) {
      s.orderIds.add(o.client_order_id);
      // The entry is the list's only buy; its complete fill activates the exits.
      if (o.side === 'buy' && o.status === 'filled') s.entryFilled = true;
    }
    if (s.phase === 'open' && s.entryFilled) {
      s.phase = 'inPosition';
      ctx.clearTimer(entryTimer(symbol));
    }
    if (!s.accepted) return [];
    const open = ctx.openOrders(symbol).some((o) => s.orderIds.has(o.client_order_id));
    return open ? [] : finish(ctx, symbol, s);
  }

  function finish(ctx: Ctx, symbol: string, s: BracketState): Intent[] {
    ctx.clearTimer(entryTimer(symbol));
    Object.assign(s, { phase: 'cooldown', intentId: undefined, orderIds: new Set(), accepted: false, entryFilled: false });
    ctx.setTimer(cooldownTimer(symbol), ctx.params.cooldownMs);
    const held = ctx.position(symbol)?.quantity;
    const instrument = ctx.instrument(symbol);
    if (held === undefined || instrument === undefined || !held.greaterThan(0)) return [];
    const quantity = instrument.roundQuantityDown(held);
    if (quantity.isZero()) return [];
    ctx.log('warn', 'bracket ended with base left; selling it at market', { symbol, quantity: quantity.toFixed() });
    return [ctx.place({ symbol, side: 'sell', type: 'market', quantity }, 'flatten')];
  }

  function onReport(ctx: Ctx, report: StrategyReport): Intent[] {
    const intentId = report.kind === 'order' ? report.intentId : report.intent.intentId;
    for (const [symbol, s] of brackets) {
      const ours = s.intentId !== undefined && (s.intentId === intentId || (report.kind === 'order' && s.orderIds.has(report.report.client_order_id)));
      if (!ours) continue;
      if (report.kind === 'denied' || report.kind === 'rejected') return finish(ctx, symbol, s);
      if (report.kind === 'accepted') {
        s.accepted = true;
        if (s.phase === 'sending') {
          s.phase = 'open';
          ctx.setTimer(entryTimer(symbol), ctx.params.entryTimeoutMs);
        }
        return track(ctx, symbol, s, report.orders);
      }
      return track(ctx, symbol, s, [report.report]);
    }
    return [];
  }

  return {
    onBook: (ctx, symbol) => enter(ctx, symbol),
    onReport: (ctx, report) => onReport(ctx, report),
    onTimer: (ctx, timerId) => {
      const [kind, symbol] = timerId.split(':') as [string, string | undefined];
      if (symbol === undefined) return undefined;
      const s = stateOf(symbol);
      if (kind === 'cooldown' && s.phase === 'cooldown') {
        s.phase = 'idle';
        return enter(ctx, symbol);
      }
      // Cancelling every order of the symbol takes the entry and its inactive exits together.
      if (kind === 'entry-timeout' && s.phase === 'open') return ctx.cancelAll(symbol, 'entry-timeout');
      return undefined;
    },
    onStop: (ctx) => ctx.cancelAll(undefined, 'stop'),
  };
}

/** The bracket plugin (`strategy.name: bracket`). */
const bracket: StrategyPlugin<BracketParams> = {
  name: 'bracket',
  description: 'Enters with a limit buy below the mid and exits with a take-profit or a stop-loss (oneTriggerOneCancelOther list)',
  parseParams: parseBracketParams,
  create: () => createBracket(),
};

export default bracket;
