import type { Decimal } from '../../framework/model/decimal.js';
import { alignFills, type FillPair } from './align-fills.js';
import { DIVERGENCE_CAUSES, judgePair, type DivergenceCause, type PairVerdict } from './divergence-cause.js';
import type { RunFolder } from './run-folder.js';

/** A pair of fills with its verdict. */
export type ComparedPair = FillPair & { readonly verdict: PairVerdict };

/** What `tradeloop compare` found between two runs of one strategy. */
export interface RunComparison {
  readonly a: RunFolder;
  readonly b: RunFolder;
  /** Every pair, in time order. */
  readonly pairs: readonly ComparedPair[];
  readonly identical: number;
  /** Identical pairs over all pairs (1 when neither run filled). */
  readonly identicalShare: number;
  /** B's PnL minus A's, in the quote currency, when both summaries give one. */
  readonly pnlDifference?: Decimal;
  /** The earliest pair that is not identical. */
  readonly firstDivergence?: ComparedPair;
  /** Divergent pairs by cause, every cause listed (zero included). */
  readonly causes: ReadonlyMap<DivergenceCause, number>;
}

/** Options of {@link compareRuns}. */
export interface CompareOptions {
  /** Largest difference of two fill times still taken as equal, ms (0: exactly equal). */
  readonly toleranceMs: number;
  /** Widest gap between fills paired by time alone, ms. */
  readonly windowMs: number;
}

/** Aligns the fills of runs A and B (A is the reference) and judges every pair. */
export function compareRuns(a: RunFolder, b: RunFolder, options: CompareOptions): RunComparison {
  const pairs = alignFills(a.fills, b.fills, { windowMs: options.windowMs }).map((pair): ComparedPair => ({ ...pair, verdict: judgePair(pair, options) }));
  const causes = new Map<DivergenceCause, number>(DIVERGENCE_CAUSES.map((c) => [c, 0]));
  let identical = 0;
  for (const { verdict } of pairs) {
    if (verdict.identical) identical++;
    else causes.set(verdict.cause, causes.get(verdict.cause)! + 1);
  }
  return {
    a, b, pairs, identical, identicalShare: pairs.length === 0 ? 1 : identical / pairs.length, causes,
    ...(a.pnl !== undefined && b.pnl !== undefined ? { pnlDifference: b.pnl.minus(a.pnl) } : {}),
    ...optionalPair(pairs.find((p) => !p.verdict.identical)),
  };
}

function optionalPair(pair: ComparedPair | undefined): { firstDivergence?: ComparedPair } {
  return pair === undefined ? {} : { firstDivergence: pair };
}
