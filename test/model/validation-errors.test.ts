import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../framework/model/errors.js';
import { closestMatch, ValidationErrors } from '../../framework/model/validation-errors.js';

describe('closestMatch', () => {
  it.each([
    ['symbolz', ['symbols', 'candles', 'name'], 'symbols'],
    ['levle', ['level', 'file', 'console'], 'level'],
    ['half_spread_bps', ['halfSpreadBps', 'orderQuantity'], 'halfSpreadBps'],
    ['xyz', ['level', 'file'], undefined],
    ['a', ['bb'], undefined],
  ])('%s among %j is %s', (word, candidates, expected) => {
    expect(closestMatch(word, candidates)).toBe(expected);
  });
});

describe('ValidationErrors', () => {
  it('keeps the first error\'s field and rule, lists all under the source', () => {
    const e = new ValidationErrors([new ValidationError('a', 'is required'), new ValidationError('b.c', 'must be > 0', -1)], 'bot.yaml');
    expect([e.field, e.rule, e.code]).toEqual(['a', 'is required', 'VALIDATION']);
    expect(e.message).toBe('bot.yaml: 2 errors\n  - a: is required\n  - b.c: must be > 0 (got -1)');
  });

  it('throwIfAny throws a lone error unchanged, and nothing for none', () => {
    const lone = new ValidationError('a', 'is required');
    expect(() => ValidationErrors.throwIfAny([])).not.toThrow();
    expect(() => ValidationErrors.throwIfAny([lone])).toThrow(lone);
  });
});
