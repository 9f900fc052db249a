import { ValidationError } from '../model/errors.js';
import { resolveConfigPath } from './config-paths.js';

/**
 * How a simulated venue delays orders (config `backtest.latency` and `paper.latency`, the CLI's
 * `--latency`), in milliseconds with fractions (microsecond resolution):
 *
 * - `constant`: every request reaches the engine `entryMs` after it was sent, and its answer comes
 *   back `responseMs` after that;
 * - `jitter`: the same plus a seeded uniform draw in [0, `jitterMs`) on each leg;
 * - `recorded`: delays interpolated in time from a series a live bot recorded (its
 *   `<bot>.latency.jsonl`), so a backtest replays the latency the bot really had.
 */
export type LatencySpec =
  | { readonly kind: 'constant'; readonly entryMs: number; readonly responseMs: number }
  | { readonly kind: 'jitter'; readonly entryMs: number; readonly responseMs: number; readonly jitterMs: number }
  | { readonly kind: 'recorded'; readonly file: string };

/**
 * The order latency of a backtest and of paper mode when none is configured: 1 ms from the bot to
 * the matching engine and 1 ms back, what a bot hosted in the exchange's region sees (NautilusTrader
 * models the same 1 ms by default). Zero would be optimistic: an order would reach the book in the
 * very instant of the frame that caused it, ahead of every other participant's reaction. A bot
 * further away should set its own figure, or replay what its live runs recorded (`*.latency.jsonl`).
 */
export const DEFAULT_ORDER_LATENCY: LatencySpec = Object.freeze({ kind: 'constant', entryMs: 1, responseMs: 1 });

/**
 * Reads a latency as written in a config or on the command line:
 *
 * - a number, or its text (`0.25`): both legs;
 * - `entry/response` (`0.2/0.35`): each leg;
 * - the path of a recorded series (`*.jsonl`, relative to `baseDir`);
 * - a mapping `{ entryMs, responseMs?, jitterMs? }` or `{ file }`.
 *
 * Throws a ValidationError naming `field` and the rule.
 */
export function parseLatencySpec(value: unknown, field: string, baseDir: string, env: NodeJS.ProcessEnv = process.env): LatencySpec {
  if (typeof value === 'number') return constant(value, value, field);
  if (typeof value === 'string') {
    const text = value.trim();
    if (/^\d+(\.\d+)?$/.test(text)) return constant(Number(text), Number(text), field);
    const legs = /^(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/.exec(text);
    if (legs !== null) return constant(Number(legs[1]), Number(legs[2]), field);
    if (text.endsWith('.jsonl')) return { kind: 'recorded', file: resolveConfigPath(text, baseDir, env) };
    throw new ValidationError(field, 'must be milliseconds (0.25), entry/response milliseconds (0.2/0.35) or a recorded latency file (*.jsonl)', value);
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o);
    if (o['file'] !== undefined) {
      if (keys.length !== 1 || typeof o['file'] !== 'string' || o['file'] === '') throw new ValidationError(field, 'a recorded latency is { file: PATH } alone', value);
      return { kind: 'recorded', file: resolveConfigPath(o['file'], baseDir, env) };
    }
    const unknown = keys.filter((k) => k !== 'entryMs' && k !== 'responseMs' && k !== 'jitterMs');
    if (unknown.length > 0) throw new ValidationError(`${field}.${unknown[0]}`, 'is not a latency key (entryMs, responseMs, jitterMs, file)', o[unknown[0]!]);
    const entryMs = milliseconds(o['entryMs'], `${field}.entryMs`);
    const responseMs = o['responseMs'] === undefined ? entryMs : milliseconds(o['responseMs'], `${field}.responseMs`);
    const jitterMs = o['jitterMs'] === undefined ? 0 : milliseconds(o['jitterMs'], `${field}.jitterMs`);
    return jitterMs > 0 ? { kind: 'jitter', entryMs, responseMs, jitterMs } : { kind: 'constant', entryMs, responseMs };
  }
  throw new ValidationError(field, 'must be milliseconds, entry/response milliseconds, a recorded latency file or a mapping', value);
}

function constant(entryMs: number, responseMs: number, field: string): LatencySpec {
  return { kind: 'constant', entryMs: milliseconds(entryMs, field), responseMs: milliseconds(responseMs, field) };
}

function milliseconds(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new ValidationError(field, 'must be a number of milliseconds >= 0', value);
  return value;
}
