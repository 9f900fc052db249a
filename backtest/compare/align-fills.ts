import type { RunFill } from './run-folder.js';

/** How two fills were paired: same order id, same intent, nearest by time (same symbol and side), or not at all. */
export type MatchKind = 'order' | 'intent' | 'time' | 'none';

/** A fill of run A and its counterpart in run B; one side is absent when the other run has no such fill. */
export interface FillPair {
  readonly a?: RunFill;
  readonly b?: RunFill;
  readonly matchedBy: MatchKind;
}

/** Options of {@link alignFills}. */
export interface AlignOptions {
  /** Widest time gap between two fills paired by time, ms. */
  readonly windowMs: number;
}

/**
 * Pairs the fills of two runs of one strategy, each fill at most once:
 * 1. the k-th fill of a client_order_id with the k-th fill of the same id in the other run (runs
 *    that made the same orders, e.g. two backtests, share their ids);
 * 2. the k-th fill of an intent with the k-th fill of the same intent id (a paper or live run names
 *    its orders otherwise, but numbers its intents the same way);
 * 3. what is left, by time: same symbol and side within `windowMs`, the same price first, then the
 *    nearest in time, then the earlier fill.
 * Pairs by id must agree on symbol and side (runs whose intent numbers drifted apart pair by time).
 * Unpaired fills come alone. The pairs are in time order (the earlier fill of each pair).
 */
export function alignFills(a: readonly RunFill[], b: readonly RunFill[], options: AlignOptions): FillPair[] {
  const pairs: FillPair[] = [];
  const pairedA = new Set<RunFill>();
  const pairedB = new Set<RunFill>();
  const pair = (x: RunFill, y: RunFill, matchedBy: MatchKind): void => {
    pairedA.add(x);
    pairedB.add(y);
    pairs.push({ a: x, b: y, matchedBy });
  };
  for (const [kind, key] of [['order', (f: RunFill) => f.clientOrderId], ['intent', (f: RunFill) => f.intentId]] as const) {
    const byKey = occurrenceKeys(b.filter((f) => !pairedB.has(f)), key);
    for (const [k, x] of occurrenceKeys(a.filter((f) => !pairedA.has(f)), key)) {
      const y = byKey.get(k);
      if (y !== undefined && y.symbol === x.symbol && y.side === x.side) pair(x, y, kind);
    }
  }
  const restB = b.filter((f) => !pairedB.has(f));
  // Candidates by symbol and side, in time order: each fill of A scans only the window around it.
  const candidates = new Map<string, RunFill[]>();
  for (const y of restB) {
    const key = `${y.symbol} ${y.side}`;
    const list = candidates.get(key);
    if (list === undefined) candidates.set(key, [y]);
    else list.push(y);
  }
  for (const list of candidates.values()) list.sort((p, q) => p.time - q.time || p.row - q.row);
  for (const x of a) {
    if (pairedA.has(x)) continue;
    const list = candidates.get(`${x.symbol} ${x.side}`) ?? [];
    let best: RunFill | undefined;
    for (let i = firstAtOrAfter(list, x.time - options.windowMs); i < list.length && list[i]!.time <= x.time + options.windowMs; i++) {
      const y = list[i]!;
      if (!pairedB.has(y) && (best === undefined || closer(x, y, best))) best = y;
    }
    if (best === undefined) pairs.push({ a: x, matchedBy: 'none' });
    else pair(x, best, 'time');
  }
  for (const y of restB) if (!pairedB.has(y)) pairs.push({ b: y, matchedBy: 'none' });
  return pairs.sort(byTime);
}

/** `<key>#<k>` for the k-th fill (from 0) of each key, fills without a key left out. */
function occurrenceKeys(fills: readonly RunFill[], key: (f: RunFill) => string | undefined): Map<string, RunFill> {
  const seen = new Map<string, number>();
  const out = new Map<string, RunFill>();
  for (const f of fills) {
    const k = key(f);
    if (k === undefined || k === '') continue;
    const n = seen.get(k) ?? 0;
    seen.set(k, n + 1);
    out.set(`${k}#${n}`, f);
  }
  return out;
}

/** Index of the first fill of `list` (in time order) at or after `time`. */
function firstAtOrAfter(list: readonly RunFill[], time: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (list[middle]!.time < time) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Whether `y` is a better time match for `x` than `best`: the same price first, then nearer, then earlier. */
function closer(x: RunFill, y: RunFill, best: RunFill): boolean {
  const samePrice = y.price.equals(x.price);
  if (samePrice !== best.price.equals(x.price)) return samePrice;
  const gap = Math.abs(y.time - x.time);
  const bestGap = Math.abs(best.time - x.time);
  return gap !== bestGap ? gap < bestGap : y.row < best.row;
}

function byTime(p: FillPair, q: FillPair): number {
  return start(p) - start(q) || (p.a?.row ?? Infinity) - (q.a?.row ?? Infinity) || (p.b?.row ?? Infinity) - (q.b?.row ?? Infinity);
}

function start(p: FillPair): number {
  return Math.min(p.a?.time ?? Infinity, p.b?.time ?? Infinity);
}
