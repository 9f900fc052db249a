import { ValidationError } from '../../framework/model/errors.js';

/** One value a grid key takes: as written in YAML (decimals are best written as strings). */
export type GridValue = string | number | boolean;

/** Strategy parameters to vary: each key lists its values, in the order they are tried. */
export type SweepGrid = Readonly<Record<string, readonly GridValue[]>>;

/** One point of the grid: a value for every key. */
export type Combination = Readonly<Record<string, GridValue>>;

/** Larger grids are refused: a typo such as a 1000-value list should not start a week-long run. */
export const MAX_COMBINATIONS = 10_000;

/**
 * Checks the shape of raw grid data (a mapping of non-empty lists of scalars) and that the
 * cartesian product stays within {@link MAX_COMBINATIONS}. Errors name `grid` or `grid.<key>`.
 */
export function parseGrid(raw: unknown): SweepGrid {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ValidationError('grid', 'must be a mapping of parameter name to a list of values', raw);
  const entries = Object.entries(raw as Record<string, unknown>);
  if (entries.length === 0) throw new ValidationError('grid', 'must name at least one parameter');
  const grid: Record<string, readonly GridValue[]> = {};
  for (const [key, values] of entries) {
    if (!Array.isArray(values)) throw new ValidationError(`grid.${key}`, 'must be a list of values', values);
    if (values.length === 0) throw new ValidationError(`grid.${key}`, 'must list at least one value');
    values.forEach((value: unknown, i) => {
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
        throw new ValidationError(`grid.${key}[${i}]`, 'must be a string, number or boolean', value);
      }
    });
    const seen = new Set(values.map((v: GridValue) => `${typeof v}:${String(v)}`));
    if (seen.size !== values.length) throw new ValidationError(`grid.${key}`, 'must not repeat a value (the same run twice)');
    grid[key] = values as GridValue[];
  }
  const count = countCombinations(grid);
  if (count > MAX_COMBINATIONS) throw new ValidationError('grid', `has ${count} combinations, more than the ${MAX_COMBINATIONS} allowed`);
  return grid;
}

/** Size of the cartesian product of the grid's lists. */
export function countCombinations(grid: SweepGrid): number {
  return Object.values(grid).reduce((n, values) => n * values.length, 1);
}

/**
 * The cartesian product in a fixed order: keys in their written order, the last key varying
 * fastest (as nested loops written in that order would), so combination `i` is stable across runs.
 */
export function expandGrid(grid: SweepGrid): Combination[] {
  let out: Record<string, GridValue>[] = [{}];
  for (const [key, values] of Object.entries(grid)) {
    const next: Record<string, GridValue>[] = [];
    for (const partial of out) for (const value of values) next.push({ ...partial, [key]: value });
    out = next;
  }
  return out;
}

/**
 * Checks every grid value, then every combination, against the plugin's parameter parser layered
 * over the config's own parameters, so a bad sweep fails before any worker starts. A parser error
 * on field `f` becomes `grid.f` (an unknown key: `grid.<key>`).
 */
export function checkGridParams(grid: SweepGrid, baseParams: Readonly<Record<string, unknown>>, parseParams: (raw: unknown) => unknown): void {
  const attempt = (params: Record<string, unknown>, describeRun: string): void => {
    try {
      parseParams(params);
    } catch (error) {
      if (error instanceof ValidationError) throw new ValidationError(`grid.${error.field}`, `${error.rule}${describeRun}`, error.value);
      throw new ValidationError('grid', `rejected by the strategy${describeRun}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  for (const [key, values] of Object.entries(grid)) {
    for (const value of values) attempt({ ...baseParams, [key]: value }, '');
  }
  expandGrid(grid).forEach((combination, i) => attempt({ ...baseParams, ...combination }, ` (combination ${i}: ${describeCombination(combination)})`));
}

/** `key=value key=value`, for messages and tables. */
export function describeCombination(combination: Combination): string {
  return Object.entries(combination).map(([k, v]) => `${k}=${String(v)}`).join(' ');
}
