import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../framework/model/errors.js';
import { backoffDelay, validateBackoff } from '../../../framework/exchange/ws/backoff.js';

const options = { initialMs: 100, maxMs: 5_000, factor: 2 };

describe('backoffDelay', () => {
  it('draws below a ceiling that doubles per attempt and stops at maxMs', () => {
    expect(backoffDelay(0, options, () => 0.5)).toBe(50);
    expect(backoffDelay(1, options, () => 0.5)).toBe(100);
    expect(backoffDelay(3, options, () => 0.5)).toBe(400);
    expect(backoffDelay(50, options, () => 0.5)).toBe(2_500);
    expect(backoffDelay(5_000, options, () => 0.999)).toBe(4_995);
  });

  it('stays within [0, maxMs] for any attempt and any random source output', () => {
    fc.assert(
      fc.property(fc.integer({ min: -5, max: 10_000 }), fc.double(), (attempt, draw) => {
        const delay = backoffDelay(attempt, options, () => draw);
        return Number.isInteger(delay) && delay >= 0 && delay <= options.maxMs;
      }),
    );
  });

  it('never shrinks the ceiling as attempts grow (same draw)', () => {
    fc.assert(
      fc.property(fc.nat(200), fc.double({ min: 0, max: 1, noNaN: true }), (attempt, draw) =>
        backoffDelay(attempt + 1, options, () => draw) >= backoffDelay(attempt, options, () => draw)),
    );
  });

  it('rejects settings that would spin', () => {
    expect(() => validateBackoff({ initialMs: 0, maxMs: 10, factor: 2 })).toThrow(ValidationError);
    expect(() => validateBackoff({ initialMs: 10, maxMs: 5, factor: 2 })).toThrow(/maxMs/);
    expect(() => validateBackoff({ initialMs: 10, maxMs: 50, factor: 0.5 })).toThrow(/factor/);
  });
});
