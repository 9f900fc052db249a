import { Decimal } from '../../framework/model/decimal.js';

/**
 * A JSON-ready copy: Decimals become exact strings, `undefined` becomes `null` (so every key is
 * present), key order is kept. Non-plain leaves (functions, bigints) become their string form.
 */
export function plain(value: unknown): unknown {
  if (value instanceof Decimal) return value.toFixed();
  if (value === undefined) return null;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) out[key] = plain(v);
    return out;
  }
  return String(value);
}
