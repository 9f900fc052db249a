import { UnrepresentableValueError, ValidationError } from '../model/errors.js';

/**
 * An indicator series a strategy declares (in {@link Strategy.indicators}) and then records values
 * of with `ctx.recordIndicator(id, symbol, value)`: a moving average, a band, a signal. Backtest
 * reports draw each declared series per symbol; live and paper runs ignore the values.
 *
 * Values are plain numbers: an indicator is for looking at (and for deciding when to act), never a
 * price or a quantity the exchange sees, so it does not need exact decimals.
 */
export interface IndicatorDeclaration {
  /** Names the series in `recordIndicator`: 1-32 letters, digits, `_`, `-` or `.`, unique per strategy. */
  readonly id: string;
  /** What the chart legend says (default: the id). */
  readonly label?: string;
  /**
   * `price`: drawn over the symbol's price chart, on its scale (averages, bands);
   * `separate`: in a pane of its own below it (oscillators, spreads in bps).
   */
  readonly pane: 'price' | 'separate';
  /** A CSS hex colour `#rgb` or `#rrggbb` (default: one of the report's palette). */
  readonly color?: string;
}

/** One recorded value: the strategy's clock time when it was recorded. */
export interface IndicatorValue {
  readonly strategyId: string;
  readonly indicator: string;
  readonly symbol: string;
  readonly time: number;
  readonly value: number;
}

const ID = /^[A-Za-z0-9_.-]{1,32}$/;
const COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/**
 * Checks a strategy's declarations (field `indicators[i].<name>` in errors) and returns them by id.
 * Throws ValidationError for a malformed or repeated id, an unknown pane or a colour that is not hex.
 */
export function indicatorsById(declarations: readonly IndicatorDeclaration[] | undefined): ReadonlyMap<string, IndicatorDeclaration> {
  const byId = new Map<string, IndicatorDeclaration>();
  (declarations ?? []).forEach((d, i) => {
    if (typeof d.id !== 'string' || !ID.test(d.id)) throw new ValidationError(`indicators[${i}].id`, 'must be 1-32 letters, digits, _, - or .', d.id);
    if (byId.has(d.id)) throw new ValidationError(`indicators[${i}].id`, 'must be unique', d.id);
    if (d.pane !== 'price' && d.pane !== 'separate') throw new ValidationError(`indicators[${i}].pane`, 'must be price or separate', d.pane);
    if (d.color !== undefined && !COLOR.test(d.color)) throw new ValidationError(`indicators[${i}].color`, 'must be a hex colour #rgb or #rrggbb', d.color);
    if (d.label !== undefined && (typeof d.label !== 'string' || d.label.length === 0 || d.label.length > 64)) {
      throw new ValidationError(`indicators[${i}].label`, 'must be 1-64 characters', d.label);
    }
    byId.set(d.id, d);
  });
  return byId;
}

/**
 * Checks one recorded value against the declarations: the id must be declared and the value a
 * finite number (NaN or Infinity would draw a wrong line, so they stop the handler instead).
 */
export function checkIndicatorValue(declared: ReadonlyMap<string, IndicatorDeclaration>, id: string, symbol: string, value: number): void {
  if (!declared.has(id)) throw new ValidationError('recordIndicator.id', 'must be declared in the strategy\'s indicators', id);
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new UnrepresentableValueError(symbol, `indicator ${id}`, value, 'must be a finite number');
}
