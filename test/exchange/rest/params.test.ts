import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  clientOrderIdParam, codeList, dateTimeParam, decimalParam, idParam, limitParam, offsetParam, optionalBoundedText,
  optionalCodeList, optionalNanos, pathSegment, requiredText, withExtra,
} from '../../../framework/exchange/rest/params.js';
import { Decimal } from '../../../framework/model/decimal.js';
import { ValidationError } from '../../../framework/model/errors.js';

const failure = (fn: () => unknown): { field: string; rule: string } | undefined => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return { field: error.field, rule: error.rule };
    throw error;
  }
  return undefined;
};

describe('decimalParam', () => {
  it('sends the exact plain text of any decimal string, whatever its trailing zeros', () => {
    const decimalText = fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.nat({ max: 30 }))
      .map(([digits, scale]) => {
        const text = digits.toString().padStart(scale + 1, '0');
        return scale === 0 ? text : `${text.slice(0, -scale)}.${text.slice(-scale)}`;
      });
    fc.assert(fc.property(decimalText, (text) => {
      const wire = decimalParam('amount', text, 'non-negative');
      expect(new Decimal(wire).eq(new Decimal(text))).toBe(true);
      expect(wire).not.toMatch(/e/i);
      expect(decimalParam('amount', new Decimal(text), 'non-negative')).toBe(wire);
    }));
  });

  it('writes tiny and huge Decimals without exponent', () => {
    expect(decimalParam('price', new Decimal('1e-12'), 'positive')).toBe('0.000000000001');
    expect(decimalParam('price', new Decimal('1e21'), 'positive')).toBe('1000000000000000000000');
  });

  it('refuses every JS number, even an integer, so no float can slip through', () => {
    fc.assert(fc.property(fc.double({ noNaN: true }), (n) => {
      expect(failure(() => decimalParam('price', n, 'any'))?.rule).toBe('must be a Decimal or a decimal string, never a JS number');
    }));
  });

  it.each([
    ['positive', '0', 'must be greater than zero'],
    ['positive', '-1', 'must be greater than zero'],
    ['non-negative', '-0.1', 'must not be negative'],
    ['any', '1e5', 'must be a plain decimal string'],
    ['any', 'abc', 'must be a plain decimal string'],
    ['any', '', 'must be a plain decimal string'],
  ] as const)('%s rule refuses %j', (rule, text, expected) => {
    expect(failure(() => decimalParam('x', text, rule))).toEqual({ field: 'x', rule: expected });
  });

  it('refuses non-finite Decimals and missing values', () => {
    expect(failure(() => decimalParam('x', new Decimal(Infinity), 'any'))?.rule).toBe('must be finite');
    expect(failure(() => decimalParam('x', undefined, 'any'))?.rule).toBe('is required');
  });

  it('accepts zero where zero is allowed (margin_balance 0 closes an account)', () => {
    expect(decimalParam('margin_balance', '0.000', 'non-negative')).toBe('0');
  });
});

describe('paging bounds', () => {
  it('limit is 1-1000 and offset 0-100000, integers only', () => {
    fc.assert(fc.property(fc.integer({ min: -10, max: 200_000 }), (n) => {
      expect(failure(() => limitParam(n)) === undefined).toBe(n >= 1 && n <= 1000);
      expect(failure(() => offsetParam(n)) === undefined).toBe(n >= 0 && n <= 100_000);
    }));
    expect(failure(() => limitParam(10.5))).toEqual({ field: 'limit', rule: 'must be an integer' });
    expect(limitParam(undefined)).toBeUndefined();
  });
});

describe('text, ids and lists', () => {
  it('requiredText refuses empty, blank and control-character values', () => {
    expect(failure(() => requiredText('symbol', ''))?.rule).toBe('must not be empty');
    expect(failure(() => requiredText('symbol', '  '))?.rule).toBe('must not be empty');
    expect(failure(() => requiredText('symbol', 'A\nB'))?.rule).toBe('must not contain control characters');
    expect(failure(() => requiredText('symbol', 5))?.rule).toBe('must be a string');
  });

  it('pathSegment encodes every reserved character so the path cannot change', () => {
    fc.assert(fc.property(fc.string({ minLength: 1 }).filter((s) => s.trim() !== '' && [...s].every((c) => c >= ' ' && c !== '\u007f')), (s) => {
      const segment = pathSegment('id', s);
      expect(segment).not.toMatch(/[/?#\s]/);
      expect(decodeURIComponent(segment)).toBe(s);
    }));
  });

  it('clientOrderIdParam bounds the length at 64 and refuses whitespace', () => {
    expect(clientOrderIdParam('client_order_id', 'x'.repeat(64))).toHaveLength(64);
    expect(failure(() => clientOrderIdParam('client_order_id', 'x'.repeat(65)))?.rule).toBe('must be at most 64 characters');
    expect(failure(() => clientOrderIdParam('client_order_id', 'a\tb'))?.rule).toBe('must not contain control characters');
  });

  it('property: text and client order id rules hold for any string (empty or blank, control characters, whitespace, length)', () => {
    const rule = (text: string, id: boolean): string | undefined => {
      if (text.trim() === '') return 'must not be empty';
      if ([...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return 'must not contain control characters';
      if (!id) return undefined;
      if (text.length > 64) return 'must be at most 64 characters';
      return /\s/u.test(text) ? 'must not contain whitespace' : undefined;
    };
    const char = fc.oneof(fc.constantFrom('a', 'Z', '0', '-', '_', ' ', '\t', '\n', '\u007f', '\u00a0', '\u2003', '\ufeff', 'é', '~', '!'), fc.string({ maxLength: 1 }));
    fc.assert(fc.property(fc.array(char, { maxLength: 70 }).map((chars) => chars.join('')), (text) => {
      expect(failure(() => requiredText('f', text))?.rule).toBe(rule(text, false));
      expect(failure(() => clientOrderIdParam('f', text))?.rule).toBe(rule(text, true));
    }), { numRuns: 3000 });
  });

  it('idParam keeps large ids exact as digits', () => {
    expect(idParam('id', '123456789012345678901234')).toBe('123456789012345678901234');
    expect(idParam('id', 42)).toBe('42');
    expect(failure(() => idParam('id', -1))?.rule).toBe('must be a non-negative integer id');
    expect(failure(() => idParam('id', 1.5))?.rule).toBe('must be a non-negative integer id');
  });

  it('code lists accept one code or an array and name the bad entry', () => {
    expect(optionalCodeList('symbols', 'ETHBTC')).toEqual(['ETHBTC']);
    expect(optionalCodeList('symbols', [])).toEqual([]);
    expect(failure(() => optionalCodeList('symbols', ['A', 'B,C']))).toEqual({ field: 'symbols[1]', rule: 'must be one code per entry (no commas)' });
    expect(failure(() => codeList('from', []))?.rule).toBe('must name at least one code');
  });

  it('optionalBoundedText counts characters', () => {
    expect(optionalBoundedText('c', 'x'.repeat(255), 255)).toHaveLength(255);
    expect(failure(() => optionalBoundedText('c', 'x'.repeat(256), 255))).toEqual({ field: 'c', rule: 'must be at most 255 characters' });
  });
});

describe('times', () => {
  it('dateTimeParam passes ISO text and milliseconds through and writes Dates as ISO', () => {
    expect(dateTimeParam('from', '2021-06-20T20:22:39.658Z')).toBe('2021-06-20T20:22:39.658Z');
    expect(dateTimeParam('from', '2021-06-20')).toBe('2021-06-20');
    expect(dateTimeParam('from', 1_624_220_559_658)).toBe(1_624_220_559_658);
    expect(dateTimeParam('from', new Date(0))).toBe('1970-01-01T00:00:00.000Z');
    expect(failure(() => dateTimeParam('from', '2021-13-45T99:00:00Z'))?.field).toBe('from');
    expect(failure(() => dateTimeParam('from', new Date(Number.NaN)))?.rule).toBe('must be a valid date');
    expect(failure(() => dateTimeParam('from', -5))?.field).toBe('from');
  });

  it('optionalNanos keeps nanoseconds exact and requires at least 1', () => {
    expect(optionalNanos('from', 1647945922123456789n)).toBe('1647945922123456789');
    expect(failure(() => optionalNanos('from', '0'))?.rule).toBe('must be at least 1');
    // A JS number cannot hold a nanosecond time exactly, so it is refused.
    expect(failure(() => optionalNanos('from', Date.now() * 1_000_000))?.field).toBe('from');
  });
});

describe('withExtra', () => {
  it('adds extra parameters in wire form and drops undefined documented ones', () => {
    expect(withExtra({ sort: 'ASC', from: undefined }, { limit: 5, exact: new Decimal('1.50'), flag: true, text: 'x' }))
      .toEqual({ sort: 'ASC', limit: 5, exact: '1.5', flag: true, text: 'x' });
  });

  it('never lets extra override a documented parameter, even one left undefined', () => {
    expect(failure(() => withExtra({ from: undefined }, { from: 'x' }))).toEqual({
      field: 'extra.from', rule: 'duplicates a documented parameter; pass it by name',
    });
  });

  it('refuses floats in extra', () => {
    expect(failure(() => withExtra({}, { step: 0.1 }))?.field).toBe('extra.step');
  });
});
