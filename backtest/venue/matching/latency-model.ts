import { ValidationError } from '../../../framework/model/errors.js';
import { Prng } from '../prng.js';

/** What a request does, so a model can give cancels a different delay than new orders. */
export type LatencyKind = 'place' | 'placeList' | 'replace' | 'cancel' | 'cancelAll' | 'query';

/**
 * How long requests and their answers travel between the client and the matching engine. The
 * venue facade applies it: a request sent at `now` is processed at `now + entryDelayMs(now, kind)`
 * (against the market of that moment), and its answer and reports reach the client
 * `responseDelayMs(processedAt, kind)` later.
 *
 * Assumptions of every model here: delays are non-negative milliseconds; they do not depend on
 * message size or on the market; a model never reorders anything itself (the facade decides
 * whether a later request may overtake an earlier one). Models read no clock: `now` is the
 * venue's time, passed in.
 */
export interface LatencyModel {
  /** Client to engine delay of a request sent at `now`. */
  entryDelayMs(now: number, kind: LatencyKind): number;
  /** Engine to client delay of the answer to a request processed at `now`. */
  responseDelayMs(now: number, kind: LatencyKind): number;
  /**
   * A lower bound of every {@link entryDelayMs}: nothing a client sends at `t` reaches the engine
   * before `t + minEntryDelayMs` (a lockstep replay releases the market up to there in one go).
   * Absent: 0, nothing is known.
   */
  readonly minEntryDelayMs?: number;
}

/**
 * The same delay every time: 0 (the default) for the sandbox, where real sockets add their own
 * latency, and a measured round-trip half for backtests.
 */
export class ConstantLatency implements LatencyModel {
  /** `responseMs` defaults to `entryMs` (a symmetric link). */
  constructor(
    readonly entryMs = 0,
    readonly responseMs = entryMs,
  ) {
    checkDelay('entryMs', entryMs);
    checkDelay('responseMs', responseMs);
  }

  get minEntryDelayMs(): number {
    return this.entryMs;
  }

  entryDelayMs(_now: number, _kind: LatencyKind): number {
    return this.entryMs;
  }

  responseDelayMs(_now: number, _kind: LatencyKind): number {
    return this.responseMs;
  }
}

/** Base delay plus uniform jitter, in milliseconds. */
export interface JitterSpec {
  readonly baseMs: number;
  /** Width of the uniform jitter added to the base: delays fall in [baseMs, baseMs + jitterMs). */
  readonly jitterMs: number;
}

/** Options of {@link JitterLatency}. */
export interface JitterLatencyOptions {
  /** Integer seed: the same seed gives the same delays in the same call order. */
  readonly seed: number;
  readonly entry: JitterSpec;
  /** Defaults to the entry spec. */
  readonly response?: JitterSpec;
}

/** Stream numbers of the shared seeded generator: entry and response delays never share draws. */
const ENTRY_STREAM = 1;
const RESPONSE_STREAM = 2;

/**
 * Base delay plus seeded uniform jitter, deterministic: the n-th `entryDelayMs` call returns the
 * n-th draw of the entry stream, whatever `now` and `kind` are. Entry and response delays come
 * from two streams derived from the seed, so asking for more (or fewer) response delays never
 * shifts the entry delays of a run, which keeps fills comparable between runs that differ only in
 * what they report. Assumption: jitter is independent from one request to the next (no bursts,
 * no correlation with market activity).
 */
export class JitterLatency implements LatencyModel {
  private readonly entryStream: Prng;
  private readonly responseStream: Prng;
  private readonly entry: JitterSpec;
  private readonly response: JitterSpec;

  constructor(options: JitterLatencyOptions) {
    if (!Number.isSafeInteger(options.seed)) throw new ValidationError('seed', 'must be a safe integer', options.seed);
    this.entry = checkSpec('entry', options.entry);
    this.response = checkSpec('response', options.response ?? options.entry);
    this.entryStream = new Prng(options.seed, ENTRY_STREAM);
    this.responseStream = new Prng(options.seed, RESPONSE_STREAM);
  }

  /** The base: the jitter only adds. */
  get minEntryDelayMs(): number {
    return this.entry.baseMs;
  }

  entryDelayMs(_now: number, _kind: LatencyKind): number {
    return this.entry.baseMs + this.entry.jitterMs * this.entryStream.uniform();
  }

  responseDelayMs(_now: number, _kind: LatencyKind): number {
    return this.response.baseMs + this.response.jitterMs * this.responseStream.uniform();
  }
}

function checkDelay(field: string, value: number): void {
  if (!(Number.isFinite(value) && value >= 0)) throw new ValidationError(field, 'must be a finite number >= 0', value);
}

function checkSpec(field: string, spec: JitterSpec): JitterSpec {
  checkDelay(`${field}.baseMs`, spec.baseMs);
  checkDelay(`${field}.jitterMs`, spec.jitterMs);
  return spec;
}
