import type { DecimalString } from '../../model/decimal.js';
import { UnrepresentableValueError } from '../../model/errors.js';
import { MAX_EXACT, formatScaledBig } from '../../model/scaled-big.js';

/** One level, as exact text and as integer units at the book's scales of the moment. */
export interface BookLevel {
  readonly price: DecimalString;
  readonly quantity: DecimalString;
  /** price x 10^priceScale, exact. */
  readonly priceUnits: bigint;
  /** quantity x 10^quantityScale, exact. */
  readonly quantityUnits: bigint;
  /**
   * {@link priceUnits} as a number; reading it throws UnrepresentableValueError when it is beyond
   * 2^53 (a placeholder ask at 9999999999999.000 on a fine grid): the text stays exact regardless.
   */
  readonly priceScaled: number;
  /** {@link quantityUnits} as a number; throws UnrepresentableValueError beyond 2^53. */
  readonly quantityScaled: number;
}

/**
 * A {@link BookLevel} of a book; the number forms are converted when read, so a level beyond 2^53
 * can still be listed (its texts and BigInt units are exact) and only the read of a number that
 * cannot hold it fails.
 */
export class ExactBookLevel implements BookLevel {
  readonly price: DecimalString;
  readonly quantity: DecimalString;
  /** The book's symbol, named by a conversion error (private: the level's data is its fields). */
  readonly #symbol: string;

  constructor(
    symbol: string,
    readonly priceUnits: bigint,
    readonly quantityUnits: bigint,
    priceScale: number,
    quantityScale: number,
  ) {
    this.#symbol = symbol;
    this.price = formatScaledBig(priceUnits, priceScale) as DecimalString;
    this.quantity = formatScaledBig(quantityUnits, quantityScale) as DecimalString;
  }

  get priceScaled(): number {
    return safeUnits(this.#symbol, 'price', this.priceUnits, this.price);
  }

  get quantityScaled(): number {
    return safeUnits(this.#symbol, 'quantity', this.quantityUnits, this.quantity);
  }
}

/**
 * `units` as a number, exactly: a safe integer converts as it is, anything beyond 2^53 throws
 * UnrepresentableValueError naming the symbol, the field and the exact text.
 */
export function safeUnits(symbol: string, field: string, units: bigint, text: string): number {
  if (units > MAX_EXACT || units < -MAX_EXACT) {
    throw new UnrepresentableValueError(symbol, field, text, 'is beyond 2^53 integer units at the book\'s scale (read the exact text or the BigInt units instead)');
  }
  return Number(units);
}
