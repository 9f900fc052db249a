import { describe, expect, it } from 'vitest';
import { ParseError } from '../../framework/model/errors.js';
import {
  asArray, asObject, decimalStringAt, mapKeyed, nullableDecimalString, optDecimal, optEnum, optId, optString, parseDateTime,
  reqArray, reqBool, reqDecimal, reqDecimalString, reqEnum, reqId, reqInt, reqString, reqTime,
} from '../../framework/model/wire.js';

function errorOf(fn: () => unknown): ParseError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ParseError) return e;
    throw e;
  }
  throw new Error('expected a ParseError');
}

describe('containers', () => {
  it('asObject and asArray reject the other shapes, naming the path', () => {
    expect(errorOf(() => asObject([], 'order')).path).toBe('order');
    expect(errorOf(() => asObject(null, '')).path).toBe('(root)');
    expect(errorOf(() => asArray({}, 'orders')).rule).toBe('must be an array');
  });

  it('mapKeyed and reqArray build child paths', () => {
    expect(mapKeyed({ A: 1, B: 2 }, 'm', (v, p, k) => `${k}:${p}:${String(v)}`)).toEqual({ A: 'A:m.A:1', B: 'B:m.B:2' });
    expect(errorOf(() => reqArray({ xs: [1, 'x'] }, 'xs', 'o', (v, p) => {
      if (typeof v !== 'number') throw new ParseError(p, 'must be a number', v);
      return v;
    })).path).toBe('o.xs[1]');
    expect(errorOf(() => reqArray({}, 'xs', 'o', (v) => v)).rule).toBe('is required');
  });
});

describe('strings and enums', () => {
  it('distinguishes absent from wrong type', () => {
    expect(errorOf(() => reqString({}, 'symbol', 'o')).rule).toBe('is required');
    expect(errorOf(() => reqString({ symbol: 1 }, 'symbol', 'o')).rule).toBe('must be a string');
    expect(optString({ s: null }, 's', 'o')).toBeUndefined();
  });

  it('checks enum membership', () => {
    expect(reqEnum({ side: 'buy' }, 'side', ['buy', 'sell'], 'o')).toBe('buy');
    expect(errorOf(() => reqEnum({ side: 'BUY' }, 'side', ['buy', 'sell'], 'o')).message).toMatch(/o\.side: must be one of buy, sell/);
    expect(optEnum({}, 'side', ['buy'], 'o')).toBeUndefined();
  });

  it('reads booleans, tolerating "true"/"false"', () => {
    expect(reqBool({ b: 'false' }, 'b', 'o')).toBe(false);
    expect(errorOf(() => reqBool({ b: 1 }, 'b', 'o')).path).toBe('o.b');
  });
});

describe('numbers as strings or JSON numbers', () => {
  it('keeps decimal strings exactly, trailing zeros included', () => {
    expect(reqDecimalString({ p: '0.0500000' }, 'p', 'o')).toBe('0.0500000');
    expect(reqDecimalString({ p: 12.5 }, 'p', 'o')).toBe('12.5');
    expect(reqDecimalString({ p: '1e-7' }, 'p', 'o')).toBe('0.0000001');
    expect(nullableDecimalString({ p: null }, 'p', 'o')).toBeNull();
    expect(decimalStringAt('-3', 'x[0]')).toBe('-3');
  });

  it('rejects non-decimals naming the field', () => {
    expect(errorOf(() => reqDecimalString({ p: '1,5' }, 'p', 'o')).message).toMatch(/o\.p: must be a decimal number/);
    expect(errorOf(() => reqDecimalString({ p: Number.NaN }, 'p', 'o')).path).toBe('o.p');
    expect(errorOf(() => reqDecimal({}, 'q', 'o')).rule).toBe('is required');
  });

  it('builds Decimals from the text, never from a float', () => {
    expect(reqDecimal({ q: '0.1' }, 'q', 'o').plus(reqDecimal({ q: '0.2' }, 'q', 'o')).toFixed()).toBe('0.3');
    expect(optDecimal({}, 'q', 'o')).toBeUndefined();
  });

  it('reads integers from numbers or numeric strings', () => {
    expect(reqInt({ n: '42' }, 'n', 'o')).toBe(42);
    expect(errorOf(() => reqInt({ n: 1.5 }, 'n', 'o')).rule).toBe('must be an integer');
  });
});

describe('identifiers', () => {
  it('accepts strings or integers and returns text', () => {
    expect(reqId({ id: '1175851866285' }, 'id', 'o')).toBe('1175851866285');
    expect(reqId({ id: 828680665 }, 'id', 'o')).toBe('828680665');
    expect(optId({ id: null }, 'id', 'o')).toBeUndefined();
  });

  it('rejects fractions, empty strings and other types', () => {
    expect(errorOf(() => reqId({ id: 1.5 }, 'id', 'o')).path).toBe('o.id');
    expect(errorOf(() => reqId({ id: '' }, 'id', 'o')).rule).toMatch(/identifier/);
    expect(errorOf(() => reqId({ id: true }, 'id', 'o')).rule).toMatch(/identifier/);
  });
});

describe('DateTime', () => {
  const ms = Date.UTC(2021, 6, 6, 10, 2, 24, 123);

  it('reads ISO 8601 and UNIX milliseconds to the same instant', () => {
    expect(reqTime({ t: '2021-07-06T10:02:24.123Z' }, 't', 'o')).toBe(ms);
    expect(reqTime({ t: ms }, 't', 'o')).toBe(ms);
    expect(reqTime({ t: String(ms) }, 't', 'o')).toBe(ms);
    expect(parseDateTime('2021-07-06T10:02:24.123456789Z', 'x')).toBe(ms);
    expect(parseDateTime('2021-07-06T10:02:24.123', 'x')).toBe(ms);
    expect(parseDateTime('2021-07-06', 'x')).toBe(Date.UTC(2021, 6, 6));
  });

  it('names the field of a bad time', () => {
    expect(errorOf(() => reqTime({ t: 'yesterday' }, 't', 'order')).message).toMatch(/order\.t: must be an ISO 8601 DateTime/);
    expect(errorOf(() => reqTime({}, 't', 'order')).rule).toBe('is required');
  });
});
