import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nearestDouble } from '../../framework/model/nearest-double.js';

/** nearestDouble of a text; the oracle is the engine's parser (Number), never the function itself. */
function read(text: string): number {
  const bytes = Buffer.from(`x${text}y`, 'latin1');
  return nearestDouble(bytes, 1, 1 + text.length);
}

/** The exact decimal text of a non-negative double (every binary fraction ends in decimal). */
function exactText(value: number): string {
  let scaled = value;
  let halvings = 0;
  while (!Number.isInteger(scaled)) {
    scaled *= 2;
    halvings++;
  }
  // value = scaled / 2^halvings = scaled * 5^halvings / 10^halvings
  const units = (BigInt(scaled) * 5n ** BigInt(halvings)).toString().padStart(halvings + 1, '0');
  return halvings === 0 ? units : `${units.slice(0, -halvings)}.${units.slice(-halvings)}`;
}

describe('nearestDouble', () => {
  it('is the double Number gives, or NaN, for plain decimals of every size', () => {
    const text = fc.tuple(fc.stringMatching(/^(0|[1-9][0-9]{0,16})$/), fc.option(fc.stringMatching(/^[0-9]{1,17}$/), { nil: undefined }))
      .map(([whole, fraction]) => (fraction === undefined ? whole : `${whole}.${fraction}`));
    let read15 = 0;
    fc.assert(fc.property(text, (t) => {
      const value = read(t);
      if (!Number.isNaN(value)) expect(value, t).toBe(Number(t));
      const [whole = '', fraction = ''] = t.split('.');
      if (whole.length <= 15 && fraction.length <= 15 && !Number.isNaN(value)) read15++;
    }), { numRuns: 20_000 });
    expect(read15).toBeGreaterThan(5_000);
  });

  it('reads frame times (13 whole digits, up to 6 decimals) itself, as Number does', () => {
    fc.assert(fc.property(fc.integer({ min: 1_500_000_000_000, max: 2_000_000_000_000 }), fc.stringMatching(/^[0-9]{1,6}$/), (ms, fraction) => {
      const t = `${ms}.${fraction}`;
      expect(read(t), t).toBe(Number(t));
    }), { numRuns: 5_000 });
  });

  it('never answers a wrong double halfway between two doubles, or next to halfway', () => {
    // Doubles from 2^38 up have an ulp of 2^-14 or more: their midpoints have at most 15 decimals.
    const x = fc.tuple(fc.integer({ min: 2 ** 38, max: 2 ** 49 }), fc.double({ min: 0, max: 1, noNaN: true }))
      .map(([whole, part]) => whole + part);
    let ties = 0;
    fc.assert(fc.property(x, (value) => {
      const next = nextUp(value);
      // The midpoint of two neighbouring doubles is exact in binary, so its decimal text is exact too.
      const midText = addExact(exactText(value), exactText((next - value) / 2));
      for (const t of [midText, bump(midText, -1), bump(midText, 1)]) {
        const read1 = read(t);
        if (!Number.isNaN(read1)) expect(read1, t).toBe(Number(t));
        else if (t === midText) ties++;
      }
    }), { numRuns: 3_000 });
    expect(ties, 'midpoints within 15 decimals are met and left to the engine').toBeGreaterThan(100);
  });

  it('leaves signs, exponents, empty parts and long digit runs to the engine', () => {
    for (const t of ['-1.5', '1e3', '1.5E2', '.5', '5.', '', '1234567890123456', '1.1234567890123456', '1..2', '0x10']) {
      expect(read(t), t).toBeNaN();
    }
    // Just below a power of two the doubles are twice as dense: halfway down is a quarter of the ulp above.
    for (let k = 38; k <= 49; k++) {
      const below = addExact(exactText(2 ** k - 2 ** (k - 53)), exactText(2 ** (k - 54)));
      for (const t of [below, bump(below, -1), bump(below, 1), addExact(exactText(2 ** k), exactText(2 ** (k - 54)))]) {
        const value = read(t);
        if (!Number.isNaN(value)) expect(value, t).toBe(Number(t));
      }
    }
    expect(read('0')).toBe(0);
    expect(read('007.25')).toBe(7.25);
    expect(read('1723161254340.863867')).toBe(JSON.parse('1723161254340.863867'));
  });
});

function nextUp(x: number): number {
  const buffer = new DataView(new ArrayBuffer(8));
  buffer.setFloat64(0, x);
  buffer.setBigUint64(0, buffer.getBigUint64(0) + 1n);
  return buffer.getFloat64(0);
}

/** The sum of two non-negative exact decimal texts, exact. */
function addExact(a: string, b: string): string {
  const decimals = Math.max(a.split('.')[1]?.length ?? 0, b.split('.')[1]?.length ?? 0);
  const units = (text: string): bigint => {
    const [w = '', f = ''] = text.split('.');
    return BigInt(w + f.padEnd(decimals, '0'));
  };
  const sum = (units(a) + units(b)).toString().padStart(decimals + 1, '0');
  return decimals === 0 ? sum : `${sum.slice(0, -decimals)}.${sum.slice(-decimals)}`;
}

/** The text with its last digit moved by `delta` units of its last place (a neighbour of a midpoint). */
function bump(text: string, delta: number): string {
  const decimals = text.split('.')[1]?.length ?? 0;
  const units = BigInt(text.replace('.', '')) + BigInt(delta);
  const digits = units.toString().padStart(decimals + 1, '0');
  return decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}
