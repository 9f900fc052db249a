import { createHash } from 'node:crypto';
import { ValidationError } from '../../framework/model/errors.js';

/** Faults the sandbox injects on purpose, for reliability tests of clients. All seeded. */
export interface FaultOptions {
  /** Close every WebSocket connection this often (ms). */
  readonly dropConnectionsEveryMs?: number;
  /** Each second, close each WebSocket connection with this probability. */
  readonly dropConnectionProbability?: number;
  /** Skip this share of `orderbook/full` updates (a sequence gap on the wire). */
  readonly skipBookSequenceProbability?: number;
  /** Skip exactly these `orderbook/full` updates: symbol -> sequence numbers (a gap placed by hand). */
  readonly skipBookSequences?: Readonly<Record<string, readonly number[]>>;
  /** Hold every order report this long (ms) before sending it. */
  readonly orderReportDelayMs?: number;
  /** Send this share of order reports twice. */
  readonly duplicateReportProbability?: number;
  /** Hold this share of order reports back until after the next one (a swap). */
  readonly reorderReportProbability?: number;
  /** Answer this many consecutive REST requests with 429 ... */
  readonly burst429Length?: number;
  /** ... every this many REST requests. */
  readonly burst429Every?: number;
  /** Answer this share of REST requests with 500/503/504 (nothing is executed). */
  readonly serverErrorProbability?: number;
  /** Delay this share of REST answers by `slowResponseMs`. */
  readonly slowResponseProbability?: number;
  readonly slowResponseMs?: number;
}

const PROBABILITIES = [
  'dropConnectionProbability', 'skipBookSequenceProbability', 'duplicateReportProbability', 'reorderReportProbability',
  'serverErrorProbability', 'slowResponseProbability',
] as const;
const DURATIONS = ['dropConnectionsEveryMs', 'orderReportDelayMs', 'slowResponseMs'] as const;
const COUNTS = ['burst429Length', 'burst429Every'] as const;

/** Every setting of {@link FaultOptions}, by name (a faults file may name only these). */
export const FAULT_SETTINGS: ReadonlySet<string> = new Set<keyof FaultOptions>([...PROBABILITIES, ...DURATIONS, ...COUNTS, 'skipBookSequences']);

/**
 * Decides, deterministically from a seed, which faults strike: the same seed and the same sequence
 * of questions give the same answers, so a failing reliability test replays exactly. Each kind of
 * fault draws from its own stream, so enabling one fault does not move the dice of another.
 */
export class FaultInjector {
  private readonly streams = new Map<string, () => number>();
  private restCount = 0;

  constructor(
    readonly options: FaultOptions,
    private readonly seed: string,
  ) {
    for (const name of PROBABILITIES) {
      const p = options[name];
      if (p !== undefined && !(p >= 0 && p <= 1)) throw new ValidationError(`faults.${name}`, 'must be a probability in 0..1', p);
    }
    for (const name of DURATIONS) {
      const ms = options[name];
      if (ms !== undefined && !(ms > 0 && Number.isFinite(ms))) throw new ValidationError(`faults.${name}`, 'must be a positive number of ms', ms);
    }
    for (const name of COUNTS) {
      const n = options[name];
      if (n !== undefined && !(Number.isInteger(n) && n > 0)) throw new ValidationError(`faults.${name}`, 'must be a positive integer', n);
    }
    for (const [symbol, sequences] of Object.entries(options.skipBookSequences ?? {})) {
      if (!Array.isArray(sequences) || sequences.some((n) => !Number.isSafeInteger(n))) {
        throw new ValidationError(`faults.skipBookSequences.${symbol}`, 'must be an array of integer sequence numbers', sequences);
      }
    }
    if ((options.burst429Length === undefined) !== (options.burst429Every === undefined)) {
      throw new ValidationError('faults.burst429Every', 'burst429Length and burst429Every go together');
    }
  }

  /** Whether the event of kind `stream` happens, with probability `p`. */
  chance(stream: string, p: number | undefined): boolean {
    if (p === undefined || p <= 0) return false;
    return this.random(stream) < p;
  }

  /** A uniform draw in [0, 1) from the named stream. */
  random(stream: string): number {
    let next = this.streams.get(stream);
    if (next === undefined) {
      next = mulberry32(createHash('sha256').update(`${this.seed}/${stream}`).digest().readUInt32LE(0));
      this.streams.set(stream, next);
    }
    return next();
  }

  /** Whether the `orderbook/full` update `sequence` of `symbol` is withheld from every client. */
  skipBookUpdate(symbol: string, sequence: number): boolean {
    if (this.options.skipBookSequences?.[symbol]?.includes(sequence)) return true;
    return this.chance('book-skip', this.options.skipBookSequenceProbability);
  }

  /** The fault, if any, striking the next REST request. */
  nextRestFault(): { readonly status: 429 | 500 | 503 | 504 } | undefined {
    const n = this.restCount++;
    const { burst429Every: every, burst429Length: length } = this.options;
    if (every !== undefined && length !== undefined && n % (every + length) >= every) return { status: 429 };
    if (this.chance('rest-5xx', this.options.serverErrorProbability)) {
      const codes = [500, 503, 504] as const;
      return { status: codes[Math.floor(this.random('rest-5xx-code') * codes.length)] ?? 500 };
    }
    return undefined;
  }

  /** Extra latency (ms) of the next REST answer. */
  nextRestDelay(): number {
    return this.chance('rest-slow', this.options.slowResponseProbability) ? (this.options.slowResponseMs ?? 1000) : 0;
  }
}

/** A small, fast, seedable PRNG (public domain, Tommy Ettinger); plenty for fault dice. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
