import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../framework/model/errors.js';
import { ValidationErrors } from '../../framework/model/validation-errors.js';
import { booleanParam, decimalParam, defineParams, integerParam, stringParam } from '../../framework/runtime/param-schema.js';

const parse = defineParams({
  symbol: stringParam({ description: 'traded symbol' }),
  spread: decimalParam({ description: 'relative spread', default: '0.001', positive: true, max: '0.5' }),
  levels: integerParam({ description: 'quote levels', default: 3, min: 1, max: 20 }),
  side: stringParam({ description: 'side', default: 'both', oneOf: ['buy', 'sell', 'both'] }),
  postOnly: booleanParam({ description: 'maker only', default: true }),
});

function fieldOf(raw: unknown): string {
  try {
    parse(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).field;
  }
  throw new Error('expected a ValidationError');
}

describe('defineParams', () => {
  it('fills defaults and reads decimals exactly (text or YAML number)', () => {
    const p = parse({ symbol: 'BTCUSDT', spread: 0.0025 });
    expect(p.spread.toFixed()).toBe('0.0025');
    expect(p.levels).toBe(3);
    expect(p.side).toBe('both');
    expect(p.postOnly).toBe(true);
    expect(parse({ symbol: 'X', spread: '0.1000000000000000000001' }).spread.toFixed()).toBe('0.1000000000000000000001');
  });

  it('names the field that breaks a rule', () => {
    expect(fieldOf({})).toBe('symbol');
    expect(fieldOf({ symbol: 'X', spread: '0' })).toBe('spread');
    expect(fieldOf({ symbol: 'X', spread: '1e-3' })).toBe('spread');
    expect(fieldOf({ symbol: 'X', levels: 2.5 })).toBe('levels');
    expect(fieldOf({ symbol: 'X', levels: 21 })).toBe('levels');
    expect(fieldOf({ symbol: 'X', side: 'up' })).toBe('side');
    expect(fieldOf({ symbol: 'X', postOnly: 'yes' })).toBe('postOnly');
    expect(fieldOf({ symbol: 'X', sprad: '0.1' })).toBe('sprad');
    expect(fieldOf([1])).toBe('params');
  });

  it('reports every bad parameter at once, suggesting the known name of a typo', () => {
    const parse = defineParams({
      spread: decimalParam({ description: 's', min: '0' }),
      levels: integerParam({ description: 'l', min: 1 }),
    });
    let caught: unknown;
    try {
      parse({ spred: '1', levels: 0 });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ValidationErrors);
    expect((caught as ValidationErrors).errors.map((e) => [e.field, e.rule])).toEqual([
      ['spred', 'is not a parameter (did you mean spread? known: spread, levels)'],
      ['spread', 'is required'],
      ['levels', 'must be >= 1'],
    ]);
  });
});
