import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLongUnsignedScaled, parseUnsignedScaled } from '../../framework/model/parse-unsigned-scaled.js';
import { MAX_EXACT, parseScaledBig } from '../../framework/model/scaled-big.js';

const PLAIN_UNSIGNED = /^(?:\d+\.?\d*|\.\d+)$/;

/** The exact answer, through BigInt: the value when it is a safe integer at `scale`, else NaN. */
function reference(text: string, scale: number): number {
  if (!PLAIN_UNSIGNED.test(text)) return Number.NaN;
  const scaled = parseScaledBig(text, scale);
  return scaled === undefined || scaled > MAX_EXACT ? Number.NaN : Number(scaled);
}

/** Plain unsigned decimal texts of every shape: short and long, with and without a dot, padded. */
const decimalText = fc
  .tuple(
    fc.stringMatching(/^[0-9]{1,19}$/),
    fc.option(fc.stringMatching(/^[0-9]{0,12}$/), { nil: undefined }),
  )
  .map(([whole, fraction]) => (fraction === undefined ? whole : `${whole}.${fraction}`));

describe('parseUnsignedScaled', () => {
  it('converts texts at, below and above the scale exactly', () => {
    expect(parseUnsignedScaled('2683.81', 2)).toBe(268381);
    expect(parseUnsignedScaled('0.0000', 4)).toBe(0);
    expect(parseUnsignedScaled('31.4395', 4)).toBe(314395);
    expect(parseUnsignedScaled('1.5', 4)).toBe(15000);
    expect(parseUnsignedScaled('10', 2)).toBe(1000);
    expect(parseUnsignedScaled('5.', 0)).toBe(5);
    expect(parseUnsignedScaled('.5', 1)).toBe(5);
    expect(parseUnsignedScaled('1.50', 1)).toBe(15);
    expect(parseUnsignedScaled('999999999.9', 1)).toBe(9999999999);
    expect(parseUnsignedScaled('99999999.9', 1)).toBe(999999999);
    expect(parseUnsignedScaled('9007199254740991', 0)).toBe(Number.MAX_SAFE_INTEGER);
    expect(parseUnsignedScaled('0.00000000000000000000000', 3)).toBe(0);
  });

  it('answers NaN for finer values, values beyond 2^53 and anything but a plain unsigned decimal', () => {
    for (const [text, scale] of [
      ['1.55', 1], ['0.001', 2], ['9007199254740992', 0], ['90071992547409.91', 3], ['1', 16],
      ['', 0], ['.', 0], ['1.2.3', 2], ['-1', 0], ['-1.00', 2], ['1e5', 0], [' 1.00', 2], ['1.0 ', 1],
      ['+1', 0], ['1,00', 2], ['0x10', 0], ['１.00', 2], ['12a4.56', 2],
    ] as const) {
      expect(parseUnsignedScaled(text, scale), `${text} @ ${scale}`).toBeNaN();
    }
  });

  it('property: plain decimal texts give the BigInt answer at any scale', () => {
    fc.assert(
      fc.property(decimalText, fc.integer({ min: 0, max: 12 }), (text, scale) => {
        const expected = reference(text, scale);
        expect(Object.is(parseUnsignedScaled(text, scale), expected)).toBe(true);
        expect(Object.is(parseLongUnsignedScaled(text, scale), expected)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('property: arbitrary texts over a decimal-like alphabet are accepted exactly when they are plain unsigned decimals', () => {
    const text = fc.array(fc.constantFrom('0', '1', '5', '9', '.', '-', '+', 'e', ' ', '/', ':'), { maxLength: 12 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 6 }), (candidate, scale) => {
        expect(Object.is(parseUnsignedScaled(candidate, scale), reference(candidate, scale))).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
