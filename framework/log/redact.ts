/** What a redacted value or secret text is replaced with. */
export const REDACTED = '[redacted]';

/** Keys whose values are redacted whatever they hold. */
export const SECRET_KEY_PATTERN = /api[_-]?key|secret|signature|authorization|password|token/i;

/**
 * Known secrets shorter than this are not searched for in texts: a short secret would blank out
 * ordinary words and numbers all over the log, and real API keys are far longer.
 */
export const MIN_SECRET_LENGTH = 6;

/** Nesting beyond this is cut, so a deep or hostile structure cannot stall a log call. */
const MAX_DEPTH = 32;

/**
 * A redactor for a fixed set of known secrets: {@link Redactor.text} replaces every occurrence of
 * each secret in a string; {@link Redactor.value} copies a value deeply with secret-named keys'
 * values replaced and secrets in strings (keys included) replaced. Inputs are never changed.
 */
export interface Redactor {
  text(text: string): string;
  value(value: unknown): unknown;
}

/**
 * Builds a {@link Redactor}. Secrets are searched longest first, so a secret that contains
 * another is replaced whole. The replacement text contains `[` and `]`, so no replacement can
 * combine with its neighbours into a new occurrence of a secret made of key characters.
 */
export function createRedactor(secrets: readonly string[] = []): Redactor {
  const known = [...new Set(secrets.filter((s) => s.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
  const text = known.length === 0 ? (t: string): string => t : (t: string): string => known.reduce((acc, s) => (acc.includes(s) ? acc.split(s).join(REDACTED) : acc), t);
  const value = (v: unknown): unknown => copy(v, text, new WeakSet(), 0);
  return { text, value };
}

/** One-off form of {@link createRedactor}: redacts `value` with the known `secrets`. */
export function redact(value: unknown, secrets: readonly string[] = []): unknown {
  return createRedactor(secrets).value(value);
}

function copy(v: unknown, text: (t: string) => string, seen: WeakSet<object>, depth: number): unknown {
  switch (typeof v) {
    case 'string':
      return text(v);
    case 'bigint':
      return v.toString();
    case 'symbol':
    case 'function':
      return text(String(v));
    case 'object':
      break;
    default:
      return v;
  }
  if (v === null) return null;
  if (seen.has(v)) return '[circular]';
  if (depth >= MAX_DEPTH) return '[too deep]';
  seen.add(v);
  try {
    if (v instanceof Error) return copyError(v, text, seen, depth);
    if (Array.isArray(v)) return v.map((item) => copy(item, text, seen, depth + 1));
    if (v instanceof Map) return copyEntries([...v.entries()].map(([k, x]) => [String(k), x]), text, seen, depth);
    if (v instanceof Set) return [...v].map((item) => copy(item, text, seen, depth + 1));
    // Decimal, Date, ApiCredentials and the like render themselves (ApiCredentials redacts itself).
    const toJSON = (v as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return copy(toJSON.call(v), text, seen, depth + 1);
    return copyEntries(Object.entries(v), text, seen, depth);
  } finally {
    seen.delete(v);
  }
}

function copyEntries(entries: readonly [string, unknown][], text: (t: string) => string, seen: WeakSet<object>, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, item] of entries) setKey(out, text(key), SECRET_KEY_PATTERN.test(key) ? REDACTED : copy(item, text, seen, depth + 1));
  return out;
}

function copyError(e: Error, text: (t: string) => string, seen: WeakSet<object>, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = { name: text(e.name), message: text(e.message) };
  if (e.stack !== undefined) out['stack'] = text(e.stack);
  // Own fields of typed errors (code, field, status...) and the cause chain.
  for (const [key, item] of Object.entries(e)) {
    if (!(key in out)) setKey(out, text(key), SECRET_KEY_PATTERN.test(key) ? REDACTED : copy(item, text, seen, depth + 1));
  }
  if (e.cause !== undefined && !('cause' in out)) out['cause'] = copy(e.cause, text, seen, depth + 1);
  return out;
}

// A parsed payload may carry a `__proto__` key: define it as data rather than set a prototype.
function setKey(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}
