import path from 'node:path';
import { readYamlFile } from '../../framework/config/read-yaml-file.js';
import { ValidationError } from '../../framework/model/errors.js';
import { SAMPLE_RECORDING } from '../recording/sample-recording.js';
import { isSweepMetric, SWEEP_METRICS, type SweepMetric } from './sweep-metrics.js';
import { parseGrid, type SweepGrid } from './sweep-grid.js';

/** Replayed when a sweep file names no recording. */
export { SAMPLE_RECORDING };

/** A validated sweep file; paths absolute. */
export interface SweepSpec {
  /** The bot config whose strategy parameters the grid overrides. */
  readonly config: string;
  readonly recordings: readonly string[];
  readonly grid: SweepGrid;
  readonly rankBy: SweepMetric;
  /** Overrides the config's `backtest.seed` when set. */
  readonly seed?: number;
}

const KEYS = ['config', 'recordings', 'grid', 'rankBy', 'seed'];

/**
 * Validates parsed sweep data; relative paths resolve against `sourceDir` (the sweep file's
 * folder). Errors name the field. The grid is checked for shape and size only here; its values
 * meet the strategy's parser in {@link checkGridParams} once the plugin is loaded.
 */
export function parseSweepSpec(raw: unknown, sourceDir: string): SweepSpec {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ValidationError('sweep', 'must be a mapping', raw);
  const data = raw as Record<string, unknown>;
  for (const key of Object.keys(data)) {
    if (!KEYS.includes(key)) throw new ValidationError(key, `is not a sweep setting (known: ${KEYS.join(', ')})`);
  }
  if (typeof data['config'] !== 'string' || data['config'].length === 0) throw new ValidationError('config', 'must be the path of a bot config file', data['config']);
  const recordings = data['recordings'] ?? [SAMPLE_RECORDING];
  if (!Array.isArray(recordings) || recordings.length === 0) throw new ValidationError('recordings', 'must be a non-empty list of recording paths', recordings);
  recordings.forEach((r: unknown, i) => {
    if (typeof r !== 'string' || r.length === 0) throw new ValidationError(`recordings[${i}]`, 'must be a path', r);
  });
  const rankBy = data['rankBy'] ?? 'pnlQuote';
  if (typeof rankBy !== 'string' || !isSweepMetric(rankBy)) {
    throw new ValidationError('rankBy', `must be a numeric metric (one of: ${SWEEP_METRICS.join(', ')})`, rankBy);
  }
  const seed = data['seed'];
  if (seed !== undefined && (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0)) {
    throw new ValidationError('seed', 'must be a non-negative integer', seed);
  }
  return {
    config: path.resolve(sourceDir, data['config']),
    recordings: (recordings as string[]).map((r) => path.resolve(sourceDir, r)),
    grid: parseGrid(data['grid']),
    rankBy,
    ...(seed === undefined ? {} : { seed }),
  };
}

/** Reads and validates a sweep YAML file (see {@link parseSweepSpec}); a missing file names `sweep`. */
export function loadSweepSpec(file: string): SweepSpec {
  const absolute = path.resolve(file);
  return parseSweepSpec(readYamlFile(absolute, 'sweep'), path.dirname(absolute));
}
