/**
 * Paths whose mapping the overriding file replaces whole rather than key by key: free-form
 * sections and amounts, where a mix of two files' keys would surprise (a bot that starts with
 * `{ BTC: 1 }` does not also want the default `USDT: 10000`).
 */
const REPLACED_WHOLE = new Set(['strategy.params', 'risk', 'paper.balances', 'backtest.balances']);

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Layers `override` over `base` (both parsed YAML): mappings merge key by key, lists, scalars,
 * null and the {@link REPLACED_WHOLE} sections are taken from `override` when it has the key.
 * Returns new objects; neither input is changed.
 */
export function mergeConfig(base: unknown, override: unknown, path = ''): unknown {
  if (!isMapping(base) || !isMapping(override) || REPLACED_WHOLE.has(path)) return override === undefined ? base : override;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    out[key] = mergeConfig(base[key], value, path === '' ? key : `${path}.${key}`);
  }
  return out;
}
