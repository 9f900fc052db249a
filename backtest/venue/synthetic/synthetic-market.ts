import { ValidationError } from '../../../framework/model/errors.js';
import type { SymbolInfo } from '../../../framework/model/resources/symbol.js';
import type { RecordedFrame, RecordingHeader } from '../../recording/recording-format.js';
import { resolveSymbol, type ResolvedSymbol, type SyntheticSymbolOptions } from './synthetic-config.js';
import { FuturesMirror, resolveFutures, type ResolvedFutures, type SyntheticFuturesOptions } from './synthetic-futures.js';
import { SymbolSimulator, type SimulatorClock, type TradeIdSource } from './symbol-simulator.js';

/** Options of {@link SyntheticMarket}. */
export interface SyntheticMarketOptions {
  /** The same seed gives the same frames, byte for byte. */
  readonly seed: number;
  /** Symbol codes or full per-symbol options; default `['BTCUSDT']`. */
  readonly symbols?: readonly (string | SyntheticSymbolOptions)[];
  /** Interval of the mid-price steps, ms; default 100. */
  readonly stepMs?: number;
  /** Local receive time minus exchange time of every frame, ms; default 3. */
  readonly latencyMs?: number;
  /** Futures contracts following spot symbols of the market (perpetual or cash-settled); default none. */
  readonly futures?: readonly SyntheticFuturesOptions[];
}

/** Which stretch of the endless synthetic market {@link SyntheticMarket.frames} yields. */
export interface SyntheticFramesOptions {
  /** Virtual start time, UNIX ms (an integer). */
  readonly start: number;
  /** Stop after this much virtual time; unbounded when absent. */
  readonly durationMs?: number;
  /** Stop after this many frames; unbounded when absent. */
  readonly maxFrames?: number;
}

/**
 * A built-in, seeded market for backtests and the sandbox when there is no recording: one or
 * more symbols, each simulated by a {@link SymbolSimulator} (see there for the model and its
 * assumptions), merged into one time-ordered stream of API v3 public-stream frames
 * (`orderbook/full` snapshot then updates, `trades`, `candles/M1`) as a recorder would have
 * captured them; futures contracts beside the spot symbols follow one of them, with polled
 * futures info answers (`rest` frames; see {@link FuturesMirror}).
 *
 * Pure: no clock, timer, file or `Math.random`; time is virtual and starts where the caller says.
 * Each symbol draws from its own stream of the seed, so a symbol's market does not change when
 * other symbols are added (only the shared trade ids shift).
 */
export class SyntheticMarket {
  private readonly symbols: readonly ResolvedSymbol[];
  private readonly contracts: readonly ResolvedFutures[];
  private readonly stepUs: number;
  private readonly latencyUs: number;

  constructor(private readonly options: SyntheticMarketOptions) {
    if (!Number.isSafeInteger(options.seed)) throw new ValidationError('seed', 'must be a safe integer', options.seed);
    const list = options.symbols ?? ['BTCUSDT'];
    if (list.length === 0) throw new ValidationError('symbols', 'must name at least one symbol', list.length);
    this.symbols = list.map((s, i) => resolveSymbol(s, `symbols[${i}]`));
    const seen = new Set<string>();
    for (const [i, s] of this.symbols.entries()) {
      if (seen.has(s.symbol)) throw new ValidationError(`symbols[${i}].symbol`, 'must not repeat a symbol', s.symbol);
      seen.add(s.symbol);
    }
    this.contracts = (options.futures ?? []).map((f, i) => resolveFutures(f, this.symbols, `futures[${i}]`));
    for (const [i, f] of this.contracts.entries()) {
      if (seen.has(f.symbol)) throw new ValidationError(`futures[${i}].symbol`, 'must not repeat a symbol', f.symbol);
      seen.add(f.symbol);
    }
    this.stepUs = microseconds(options.stepMs ?? 100, 'stepMs', 1);
    this.latencyUs = microseconds(options.latencyMs ?? 3, 'latencyMs', 0);
  }

  /** The symbols in the API v3 Symbol shape, keyed by code. */
  symbolInfos(): Record<string, SymbolInfo> {
    return Object.fromEntries([...this.symbols, ...this.contracts].map((s) => [s.symbol, s.info]));
  }

  /** The recording header for these frames (venue `sandbox`). */
  header(): RecordingHeader {
    return {
      format: 'tradeloop.recording',
      version: 1,
      venue: 'sandbox',
      symbols: this.symbolInfos(),
      note: `synthetic market, seed ${this.options.seed}`,
    };
  }

  /**
   * The market from `start` on, lazily and in constant memory: first one `orderbook/full`
   * snapshot per symbol, then every symbol's events merged in virtual-time order (ties go to the
   * symbol listed first). Each call starts over from the seed, so two calls yield the same frames.
   * Without `durationMs` and `maxFrames` the sequence never ends.
   */
  *frames(options: SyntheticFramesOptions): Generator<RecordedFrame> {
    const { start, durationMs, maxFrames } = options;
    if (!Number.isSafeInteger(start) || start < 0) throw new ValidationError('start', 'must be a UNIX time in integer ms', start);
    if (durationMs !== undefined && !(Number.isFinite(durationMs) && durationMs >= 0)) {
      throw new ValidationError('durationMs', 'must be a finite number >= 0', durationMs);
    }
    if (maxFrames !== undefined && !(Number.isSafeInteger(maxFrames) && maxFrames >= 0)) {
      throw new ValidationError('maxFrames', 'must be an integer >= 0', maxFrames);
    }
    const startUs = start * 1000;
    if (!Number.isSafeInteger(startUs + (durationMs ?? 0) * 1000)) throw new ValidationError('start', 'is too far in the future for microsecond time', start);
    const clock: SimulatorClock = { startUs, stepUs: this.stepUs, latencyUs: this.latencyUs };
    const tradeIds: TradeIdSource = { next: 1 };
    const simulators = this.symbols.map((s) => new SymbolSimulator(s, this.options.seed, clock, tradeIds));
    const mirrors = this.contracts.map((f) => {
      const at = this.symbols.findIndex((s) => s.symbol === f.underlying);
      const simulator = simulators[at]!;
      return new FuturesMirror(f, this.symbols[at]!.instrument, () => simulator.bestTicks(), startUs, this.latencyUs);
    });
    const sources: FrameSource[] = [...simulators, ...mirrors];
    const endUs = durationMs === undefined ? Number.POSITIVE_INFINITY : startUs + Math.floor(durationMs * 1000);
    const limit = maxFrames ?? Number.POSITIVE_INFINITY;
    let emitted = 0;
    const batch: RecordedFrame[] = [];
    for (const simulator of simulators) simulator.open(batch);
    mirrorInto(batch, 0, mirrors);
    for (;;) {
      for (const frame of batch) {
        if (emitted >= limit) return;
        emitted++;
        yield frame;
      }
      batch.length = 0;
      let next = sources[0] as FrameSource;
      for (let i = 1; i < sources.length; i++) {
        const candidate = sources[i] as FrameSource;
        if (candidate.nextEventUs < next.nextEventUs) next = candidate;
      }
      if (next.nextEventUs > endUs || emitted >= limit) return;
      next.step(batch);
      if (mirrors.length > 0 && next instanceof SymbolSimulator) mirrorInto(batch, 0, mirrors);
    }
  }
}

/** What the merge of {@link SyntheticMarket.frames} steps: a symbol's simulator or a contract's info poll. */
interface FrameSource {
  readonly nextEventUs: number;
  step(out: RecordedFrame[]): void;
}

/** Puts each contract's copy of the frames of `batch` from `from` on right after the frame it copies. */
function mirrorInto(batch: RecordedFrame[], from: number, mirrors: readonly FuturesMirror[]): void {
  if (mirrors.length === 0) return;
  const original = batch.splice(from);
  for (const frame of original) {
    batch.push(frame);
    for (const mirror of mirrors) {
      const copy = mirror.mirror(frame);
      if (copy !== undefined) batch.push(copy);
    }
  }
}

function microseconds(ms: unknown, field: string, min: number): number {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < min || ms > 86_400_000) {
    throw new ValidationError(field, `must be a number of ms in ${min}..86400000`, ms);
  }
  return Math.round(ms * 1000);
}
