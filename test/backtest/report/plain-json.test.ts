import { describe, expect, it } from 'vitest';
import { plain } from '../../../backtest/report/plain-json.js';
import { dec } from '../../../framework/model/decimal.js';

describe('plain', () => {
  it('turns decimals into exact strings and undefined or non-finite numbers into null, keeping key order', () => {
    const value = plain({ z: dec('1.50'), a: [undefined, Number.NaN, 2, 10n], m: { n: null, s: 'x', b: true } });
    expect(value).toEqual({ z: '1.5', a: [null, null, 2, '10'], m: { n: null, s: 'x', b: true } });
    expect(Object.keys(value as object)).toEqual(['z', 'a', 'm']);
    expect(plain(dec('0.00000001'))).toBe('0.00000001');
  });
});
