import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkGridParams, countCombinations, expandGrid, MAX_COMBINATIONS, parseGrid } from '../../../backtest/sweep/sweep-grid.js';
import { ValidationError } from '../../../framework/model/errors.js';
import marketMaker from '../../../strategies/market-maker/market-maker.strategy.js';

function validationField(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return error.field;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

const BASE = { orderQuantity: '0.05', maxInventory: '0.2' };

describe('expandGrid', () => {
  it('runs the cartesian product in written key order, the last key fastest', () => {
    expect(expandGrid({ a: ['1', '2'], b: [0, 4, 8] })).toEqual([
      { a: '1', b: 0 }, { a: '1', b: 4 }, { a: '1', b: 8 },
      { a: '2', b: 0 }, { a: '2', b: 4 }, { a: '2', b: 8 },
    ]);
  });

  it('gives every combination exactly once (property)', () => {
    const grid = fc.dictionary(fc.stringMatching(/^[a-z]{1,4}$/), fc.uniqueArray(fc.integer({ min: 0, max: 50 }), { minLength: 1, maxLength: 4 }), { minKeys: 1, maxKeys: 4 });
    fc.assert(fc.property(grid, (g) => {
      const combos = expandGrid(g);
      expect(combos).toHaveLength(countCombinations(g));
      expect(new Set(combos.map((c) => JSON.stringify(c))).size).toBe(combos.length);
      for (const c of combos) for (const [k, values] of Object.entries(g)) expect(values).toContain(c[k]);
    }));
  });
});

describe('parseGrid', () => {
  it('accepts lists of scalars', () => {
    expect(parseGrid({ halfSpreadBps: ['2', '4'], minRequoteIntervalMs: [250] })).toEqual({ halfSpreadBps: ['2', '4'], minRequoteIntervalMs: [250] });
  });

  it('names the field of each shape error', () => {
    expect(validationField(() => parseGrid(undefined))).toBe('grid');
    expect(validationField(() => parseGrid({}))).toBe('grid');
    expect(validationField(() => parseGrid({ skewBps: [] }))).toBe('grid.skewBps');
    expect(validationField(() => parseGrid({ skewBps: '4' }))).toBe('grid.skewBps');
    expect(validationField(() => parseGrid({ skewBps: ['4', { x: 1 }] }))).toBe('grid.skewBps[1]');
    expect(validationField(() => parseGrid({ skewBps: ['4', '4'] }))).toBe('grid.skewBps');
  });

  it(`refuses more than ${MAX_COMBINATIONS} combinations and accepts exactly that many`, () => {
    const hundred = Array.from({ length: 100 }, (_, i) => i);
    expect(countCombinations(parseGrid({ a: hundred, b: hundred }))).toBe(MAX_COMBINATIONS);
    expect(() => parseGrid({ a: hundred, b: hundred, c: [1, 2] })).toThrow(/20000 combinations/);
  });
});

describe('checkGridParams', () => {
  const parse = (raw: unknown): unknown => marketMaker.parseParams(raw);

  it('passes a grid the strategy accepts', () => {
    expect(() => checkGridParams({ halfSpreadBps: ['2', '8'], skewBps: ['0'] }, BASE, parse)).not.toThrow();
  });

  it("reports an unknown key with the plugin's error prefixed grid.<key>", () => {
    expect(validationField(() => checkGridParams({ halfSpred: ['2'] }, BASE, parse))).toBe('grid.halfSpred');
  });

  it('reports a bad value under its key', () => {
    expect(() => checkGridParams({ halfSpreadBps: ['2', 'wide'] }, BASE, parse)).toThrow(/^grid\.halfSpreadBps: must be a decimal number/);
  });

  it('checks whole combinations against cross-field rules', () => {
    const parseLowHigh = (raw: unknown): unknown => {
      const p = raw as { low: number; high: number };
      if (p.low >= p.high) throw new ValidationError('low', 'must be below high');
      return p;
    };
    expect(() => checkGridParams({ low: [1, 5], high: [3, 9] }, {}, parseLowHigh)).toThrow(/grid\.low: must be below high \(combination 2: low=5 high=3\)/);
  });
});
