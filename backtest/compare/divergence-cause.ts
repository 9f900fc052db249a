import type { DecisionFrame } from '../../framework/model/decision-frame.js';
import type { FillPair } from './align-fills.js';
import type { RunFill } from './run-folder.js';

/**
 * Why a fill of run B differs from its counterpart in run A (A is the reference):
 * - `missing`: one run has the fill, the other none (its order was never made, or never filled);
 * - `late-frame`: B decided on a later market frame than A (the frame A acted on reached B late,
 *   or never);
 * - `different-frame`: B decided on another frame, not a later one (another symbol, an earlier one);
 * - `price`: same frame, another fill price (the book was met elsewhere);
 * - `latency`: same frame and price, but B's order reached the venue at another time (its
 *   `created_at`), or it took liquidity at another time;
 * - `queue-position`: same frame, price and arrival, but the resting order filled at another time
 *   or for another quantity (its place in the queue differed);
 * - `fee`: only the fee differs.
 */
export type DivergenceCause = 'missing' | 'late-frame' | 'different-frame' | 'price' | 'latency' | 'queue-position' | 'fee';

/** Every cause, in the order summaries list them. */
export const DIVERGENCE_CAUSES: readonly DivergenceCause[] = ['missing', 'late-frame', 'different-frame', 'price', 'latency', 'queue-position', 'fee'];

/** A pair's verdict: identical, or the cause of the difference with one line saying what differs. */
export type PairVerdict = { readonly identical: true } | { readonly identical: false; readonly cause: DivergenceCause; readonly detail: string };

/** Options of {@link judgePair}. */
export interface JudgeOptions {
  /** Largest difference of fill times (and order arrival times) still taken as equal, whole ms. */
  readonly toleranceMs: number;
}

/**
 * Whether two paired fills are identical (time within the tolerance, side, price, quantity, fee,
 * maker/taker), and if not, why (see {@link DivergenceCause}; the first cause that applies in that
 * order). Decision frames are compared only where both fills carry one.
 */
export function judgePair(pair: FillPair, options: JudgeOptions): PairVerdict {
  const { a, b } = pair;
  if (a === undefined || b === undefined) {
    const only = (a ?? b)!;
    return { identical: false, cause: 'missing', detail: `only in ${a === undefined ? 'B' : 'A'}: ${only.side} ${only.quantity.toFixed()} ${only.symbol} @ ${only.price.toFixed()}` };
  }
  const timeEqual = apart(a.time, b.time) <= options.toleranceMs;
  const sameFill = timeEqual && a.side === b.side && a.price.equals(b.price) && a.quantity.equals(b.quantity) && a.liquidity === b.liquidity;
  if (sameFill && a.fee.equals(b.fee)) return { identical: true };
  if (a.decision !== undefined && b.decision !== undefined && !sameFrame(a.decision, b.decision)) {
    const later = isLater(b.decision, a.decision);
    return { identical: false, cause: later ? 'late-frame' : 'different-frame', detail: `B decided on ${frameText(b.decision)}, A on ${frameText(a.decision)}` };
  }
  if (!a.price.equals(b.price)) return { identical: false, cause: 'price', detail: `price ${a.price.toFixed()} in A, ${b.price.toFixed()} in B` };
  if (sameFill) return { identical: false, cause: 'fee', detail: `fee ${a.fee.toFixed()} in A, ${b.fee.toFixed()} in B` };
  const arrivalA = a.orderCreatedAt;
  const arrivalB = b.orderCreatedAt;
  if (arrivalA !== undefined && arrivalB !== undefined && apart(arrivalA, arrivalB) > options.toleranceMs) {
    return { identical: false, cause: 'latency', detail: `order reached the venue at ${arrivalA} in A, ${arrivalB} in B (${signed(arrivalB - arrivalA)} ms)` };
  }
  if (a.liquidity === 'maker' && b.liquidity === 'maker') {
    return { identical: false, cause: 'queue-position', detail: `resting order filled ${differences(a, b, options)}` };
  }
  return { identical: false, cause: 'latency', detail: `${a.liquidity} in A, ${b.liquidity} in B; ${differences(a, b, options)}` };
}

/** The same frame: the same symbol and book sequence, else exchange time, else receive time. */
function sameFrame(x: DecisionFrame, y: DecisionFrame): boolean {
  if (x.symbol !== y.symbol) return false;
  if (x.sequence !== undefined && y.sequence !== undefined) return x.sequence === y.sequence;
  if (x.exchangeTime !== undefined && y.exchangeTime !== undefined) return x.exchangeTime === y.exchangeTime;
  return x.receivedAt === y.receivedAt;
}

/** Whether `x` came after `y` on the same symbol (by sequence, else exchange time, else receive time). */
function isLater(x: DecisionFrame, y: DecisionFrame): boolean {
  if (x.symbol !== y.symbol) return false;
  if (x.sequence !== undefined && y.sequence !== undefined) return x.sequence > y.sequence;
  if (x.exchangeTime !== undefined && y.exchangeTime !== undefined) return x.exchangeTime > y.exchangeTime;
  return x.receivedAt > y.receivedAt;
}

function frameText(f: DecisionFrame): string {
  return `${f.symbol} ${f.sequence === undefined ? '' : `seq ${f.sequence} `}${f.exchangeTime === undefined ? `received ${f.receivedAt}` : `at ${f.exchangeTime}`}`;
}

function differences(a: RunFill, b: RunFill, options: JudgeOptions): string {
  const out: string[] = [];
  if (apart(a.time, b.time) > options.toleranceMs) out.push(`time ${signed(b.time - a.time)} ms in B`);
  if (!a.quantity.equals(b.quantity)) out.push(`quantity ${a.quantity.toFixed()} in A, ${b.quantity.toFixed()} in B`);
  if (!a.fee.equals(b.fee)) out.push(`fee ${a.fee.toFixed()} in A, ${b.fee.toFixed()} in B`);
  return out.join(', ');
}

/**
 * Milliseconds between two times, counted in whole milliseconds: a backtest's clock carries
 * fractions of a millisecond (the recording's receive times), a venue's report does not.
 */
function apart(x: number, y: number): number {
  return Math.abs(Math.floor(x) - Math.floor(y));
}

function signed(ms: number): string {
  const rounded = Math.round(ms * 1000) / 1000;
  return rounded >= 0 ? `+${rounded}` : String(rounded);
}
