import { readFileSync } from 'node:fs';
import type { LatencySpec } from '../../../framework/config/latency-spec.js';
import type { LatencySample } from '../../../framework/execution/venue-gateway.js';
import { ValidationError } from '../../../framework/model/errors.js';
import { ConstantLatency, JitterLatency, type LatencyKind, type LatencyModel } from './latency-model.js';


/**
 * Delays interpolated in time from a measured series (as hftbacktest's IntpOrderLatency does): a
 * request sent at `now` between two samples gets the linear interpolation of their delays; before
 * the first sample the first one's, after the last the last one's. The response delay is
 * interpolated at the time the request was processed. Assumptions: the series is representative of
 * every request kind (cancels as new orders), and delays between samples change linearly.
 */
export class InterpolatedLatency implements LatencyModel {
  private readonly times: Float64Array;
  private readonly entries: Float64Array;
  private readonly responses: Float64Array;
  /** The series' smallest entry delay: an interpolation never goes below both of its samples. */
  readonly minEntryDelayMs: number;
  /** Index of the sample at or before the last time asked: replays ask in time order, so a search rarely moves far. */
  private cursor = 0;

  constructor(samples: readonly LatencySample[]) {
    if (samples.length === 0) throw new ValidationError('latency', 'a recorded latency series needs at least one sample', 0);
    const sorted = [...samples].sort((a, b) => a.t - b.t);
    this.times = Float64Array.from(sorted, (s) => s.t);
    this.entries = Float64Array.from(sorted, (s) => s.entryMs);
    this.responses = Float64Array.from(sorted, (s) => s.responseMs);
    this.minEntryDelayMs = this.entries.reduce((min, entry) => Math.min(min, entry), Infinity);
  }

  entryDelayMs(now: number, _kind: LatencyKind): number {
    return this.at(now, this.entries);
  }

  responseDelayMs(now: number, _kind: LatencyKind): number {
    return this.at(now, this.responses);
  }

  private at(now: number, values: Float64Array): number {
    const times = this.times;
    const last = times.length - 1;
    if (now <= times[0]!) return values[0]!;
    if (now >= times[last]!) return values[last]!;
    let i = this.cursor;
    while (i > 0 && times[i]! > now) i--;
    while (i < last && times[i + 1]! <= now) i++;
    this.cursor = i;
    const t0 = times[i]!;
    const t1 = times[i + 1]!;
    if (t1 === t0) return values[i]!;
    return values[i]! + ((values[i + 1]! - values[i]!) * (now - t0)) / (t1 - t0);
  }
}

/**
 * Reads a latency series a live bot recorded (`<bot>.latency.jsonl`: one JSON object a line, `t`,
 * `entryMs`, `responseMs`). A line that is not such an object, or a negative or non-finite delay,
 * is refused with the file and the line.
 */
export function readLatencySeries(file: string): LatencySample[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ValidationError('latency.file', `cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, file);
  }
  const samples: LatencySample[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const where = `${file}:${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new ValidationError('latency.file', `line ${index + 1} is not JSON`, where);
    }
    const o = value as Partial<Record<keyof LatencySample, unknown>>;
    for (const key of ['t', 'entryMs', 'responseMs'] as const) {
      const v = o[key];
      if (typeof v !== 'number' || !Number.isFinite(v) || (key !== 't' && v < 0)) {
        throw new ValidationError('latency.file', `line ${index + 1}: ${key} must be a ${key === 't' ? 'time in ms' : 'number of milliseconds >= 0'}`, where);
      }
    }
    samples.push({ t: o.t as number, entryMs: o.entryMs as number, responseMs: o.responseMs as number });
  });
  if (samples.length === 0) throw new ValidationError('latency.file', 'holds no sample', file);
  return samples;
}

/**
 * The latency a sandbox adds, from a spec: none (undefined) for a zero constant, so requests run
 * as they arrive instead of through a zero-delay timer; else {@link latencyModelOf}.
 */
export function addedLatency(spec: LatencySpec, seed: number): LatencyModel | undefined {
  if (spec.kind === 'constant' && spec.entryMs === 0 && spec.responseMs === 0) return undefined;
  return latencyModelOf(spec, seed);
}

/** The latency model a spec describes; `seed` drives the jitter. */
export function latencyModelOf(spec: LatencySpec, seed: number): LatencyModel {
  switch (spec.kind) {
    case 'constant': return new ConstantLatency(spec.entryMs, spec.responseMs);
    case 'jitter': return new JitterLatency({ seed, entry: { baseMs: spec.entryMs, jitterMs: spec.jitterMs }, response: { baseMs: spec.responseMs, jitterMs: spec.jitterMs } });
    case 'recorded': return new InterpolatedLatency(readLatencySeries(spec.file));
  }
}
