/**
 * The root of every error tradeloop throws. `code` is stable and machine-readable; `retryable`
 * says whether repeating the same action may succeed (network trouble, 429, 5xx) or never will
 * (validation, rejects).
 */
export abstract class TradeloopError extends Error {
  abstract readonly code: string;
  abstract readonly retryable: boolean;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * Bad input from a caller or a config file: names the field and the rule it broke. Thrown before
 * anything is sent, so nothing happened and repeating the call cannot help.
 */
export class ValidationError extends TradeloopError {
  readonly code = 'VALIDATION';
  readonly retryable = false;

  constructor(
    readonly field: string,
    readonly rule: string,
    readonly value?: unknown,
  ) {
    super(`${field}: ${rule}${value === undefined ? '' : ` (got ${describe(value)})`}`);
  }
}

/**
 * A payload from the exchange (REST body, WebSocket frame, recording line) that does not have the
 * documented shape. `path` locates the field, e.g. `order.trades[2].price`.
 */
export class ParseError extends TradeloopError {
  readonly code = 'PARSE';
  readonly retryable = false;

  constructor(
    readonly path: string,
    readonly rule: string,
    readonly value?: unknown,
  ) {
    super(`${path}: ${rule}${value === undefined ? '' : ` (got ${describe(value)})`}`);
  }
}

/** Short, log-safe rendering of an offending value: never dumps whole payloads. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value.length > 64 ? `${value.slice(0, 61)}...` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return `array(${value.length})`;
  return typeof value;
}

/**
 * A price, quantity or amount that cannot be held exactly in the integer units of an instrument's
 * grid (beyond 2^53 units, not a finite number, or off the grid where the grid is required). A
 * wrong number is worse than a stop: code that meets one throws this instead of rounding, clamping,
 * skipping or carrying NaN. `instrument` names the symbol (or the currency) and `field` the value.
 */
export class UnrepresentableValueError extends TradeloopError {
  readonly code = 'UNREPRESENTABLE';
  readonly retryable = false;

  constructor(
    readonly instrument: string,
    readonly field: string,
    readonly value: unknown,
    readonly rule: string,
  ) {
    super(`${instrument} ${field}: ${rule} (got ${describe(value)})`);
  }
}
