import fc from 'fast-check';
import { Decimal, type DecimalString } from '../../../framework/model/decimal.js';

/** Generators shared by the resource round-trip properties. */

/** Plain decimal text with up to 12 decimals and optional sign; never "-0". */
export const decimalText = (opts: { negative?: boolean } = {}): fc.Arbitrary<DecimalString> =>
  fc
    .tuple(fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.integer({ min: 0, max: 12 }), fc.boolean())
    .map(([units, scale, neg]) => {
      const digits = units.toString().padStart(scale + 1, '0');
      const text = scale === 0 ? digits : `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
      return ((opts.negative === true && neg && units !== 0n ? '-' : '') + text) as DecimalString;
    });

/** A Decimal built from generated text. */
export const decimal = (opts: { negative?: boolean } = {}): fc.Arbitrary<Decimal> =>
  decimalText(opts).map((t) => new Decimal(t));

/** A strictly positive Decimal. */
export const positiveDecimal = (): fc.Arbitrary<Decimal> => decimal().filter((d) => !d.isZero());

/** UNIX ms between 1970 and 2100 (ISO 8601 round trips exactly in that range). */
export const timeMs = (): fc.Arbitrary<number> => fc.integer({ min: 0, max: 4_102_444_800_000 });

/** Exchange identifiers: numeric (safe or not) or opaque text as futures ids are. */
export const id = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.bigInt({ min: 0n, max: 2n ** 64n }).map(String),
    fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,30}$/),
  );

/** A symbol or currency code. */
export const code = (): fc.Arbitrary<string> => fc.stringMatching(/^[A-Z][A-Z0-9]{1,11}$/);

/** Builds an object without the keys whose generated value is undefined (absent optional fields). */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
