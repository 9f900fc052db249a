import { Decimal, isDecimalString } from '../model/decimal.js';
import { ValidationError } from '../model/errors.js';
import { closestMatch, ValidationErrors } from '../model/validation-errors.js';

/** One declared strategy parameter: its reader and optional default. */
export interface ParamSpec<T> {
  readonly description: string;
  readonly default?: T;
  /** Reads a present raw value; throws ValidationError naming `field`. */
  read(raw: unknown, field: string): T;
}

/** The parameters a schema produces. */
export type ParamsOf<S extends Readonly<Record<string, ParamSpec<unknown>>>> = { readonly [K in keyof S]: S[K] extends ParamSpec<infer T> ? T : never };

/**
 * Builds a plugin's `parseParams` from declared parameters: the raw value (YAML object, or
 * nothing) must be an object; unknown keys are refused (a typo must not silently fall back to a
 * default, and the closest known name is suggested); a missing key takes its default or is
 * reported as required. Several bad parameters are reported together (ValidationErrors).
 */
export function defineParams<S extends Readonly<Record<string, ParamSpec<unknown>>>>(schema: S): (raw: unknown) => ParamsOf<S> {
  return (raw) => {
    const input = raw ?? {};
    if (typeof input !== 'object' || Array.isArray(input)) throw new ValidationError('params', 'must be an object', input);
    const values = input as Record<string, unknown>;
    // Every bad parameter at once: a user fixes the whole block in one pass.
    const errors: ValidationError[] = [];
    for (const key of Object.keys(values)) {
      if (Object.hasOwn(schema, key)) continue;
      const guess = closestMatch(key, Object.keys(schema));
      errors.push(new ValidationError(key, `is not a parameter (${guess === undefined ? '' : `did you mean ${guess}? `}known: ${Object.keys(schema).join(', ')})`));
    }
    const out: Record<string, unknown> = {};
    for (const [key, spec] of Object.entries(schema)) {
      const value = values[key];
      try {
        if (value === undefined) {
          if (spec.default === undefined) throw new ValidationError(key, 'is required');
          out[key] = spec.default;
        } else {
          out[key] = spec.read(value, key);
        }
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        errors.push(error);
      }
    }
    ValidationErrors.throwIfAny(errors);
    return out as ParamsOf<S>;
  };
}

/**
 * An exact decimal (price, quantity, ratio). Text is preferred; a YAML number is taken by its
 * shortest decimal text (`0.001` stays `0.001`), never through float arithmetic.
 */
export function decimalParam(options: { description: string; default?: string; min?: string; max?: string; positive?: boolean }): ParamSpec<Decimal> {
  const min = options.min === undefined ? undefined : new Decimal(options.min);
  const max = options.max === undefined ? undefined : new Decimal(options.max);
  return {
    description: options.description,
    default: options.default === undefined ? undefined : new Decimal(options.default),
    read(raw, field) {
      const text = typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : raw;
      if (typeof text !== 'string' || !isDecimalString(text)) throw new ValidationError(field, 'must be a decimal number', raw);
      const value = new Decimal(text);
      if (options.positive === true && !value.greaterThan(0)) throw new ValidationError(field, 'must be > 0', raw);
      if (min !== undefined && value.lessThan(min)) throw new ValidationError(field, `must be >= ${options.min}`, raw);
      if (max !== undefined && value.greaterThan(max)) throw new ValidationError(field, `must be <= ${options.max}`, raw);
      return value;
    },
  };
}

/** A safe integer within bounds (counts, levels, milliseconds). */
export function integerParam(options: { description: string; default?: number; min?: number; max?: number }): ParamSpec<number> {
  return {
    description: options.description,
    default: options.default,
    read(raw, field) {
      if (typeof raw !== 'number' || !Number.isSafeInteger(raw)) throw new ValidationError(field, 'must be an integer', raw);
      if (options.min !== undefined && raw < options.min) throw new ValidationError(field, `must be >= ${options.min}`, raw);
      if (options.max !== undefined && raw > options.max) throw new ValidationError(field, `must be <= ${options.max}`, raw);
      return raw;
    },
  };
}

/** A non-empty string, optionally one of a fixed set. */
export function stringParam<T extends string = string>(options: { description: string; default?: T; oneOf?: readonly T[] }): ParamSpec<T> {
  return {
    description: options.description,
    default: options.default,
    read(raw, field) {
      if (typeof raw !== 'string' || raw.length === 0) throw new ValidationError(field, 'must be a non-empty string', raw);
      if (options.oneOf !== undefined && !options.oneOf.includes(raw as T)) {
        throw new ValidationError(field, `must be one of ${options.oneOf.join(', ')}`, raw);
      }
      return raw as T;
    },
  };
}

/** A boolean. */
export function booleanParam(options: { description: string; default?: boolean }): ParamSpec<boolean> {
  return {
    description: options.description,
    default: options.default,
    read(raw, field) {
      if (typeof raw !== 'boolean') throw new ValidationError(field, 'must be true or false', raw);
      return raw;
    },
  };
}
