import type { ErrorObject } from 'ajv';
import { ValidationError } from '../model/errors.js';
import { closestMatch } from '../model/validation-errors.js';

/**
 * Dotted path of a JSON pointer as the rest of tradeloop names fields: `/strategy/symbols/0`
 * becomes `strategy.symbols[0]`; the root is `root`.
 */
export function pointerToPath(pointer: string): string {
  if (pointer === '') return '';
  let path = '';
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    path += /^\d+$/.test(segment) ? `[${segment}]` : path === '' ? segment : `.${segment}`;
  }
  return path;
}

/** Sentences for the schema's patterns that are not worth reading as a regular expression. */
const PATTERN_RULES: Readonly<Record<string, string>> = {
  '^(?:\\d+\\.?\\d*|\\.\\d+)$': 'must be a non-negative decimal number',
  '^https?://[^\\s/?#]+[^\\s]*$': 'must be an http:// or https:// URL',
  '^wss?://[^\\s/?#]+[^\\s]*$': 'must be a ws:// or wss:// URL',
  '^[A-Z0-9][A-Z0-9_]{1,39}$': 'must be an exchange symbol: 2-40 capital letters, digits or _ (BTCUSDT, BTCUSDT_PERP)',
};

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function typeName(type: unknown): string {
  const names = Array.isArray(type) ? type : [type];
  const words = names.map((t) => (t === 'object' ? 'mapping' : t === 'array' ? 'list' : String(t)));
  const article = (w: string): string => `a${/^[aeiou]/.test(w) ? 'n' : ''} ${w}`;
  return `must be ${words.map((w) => (w === 'null' ? w : article(w))).join(' or ')}`;
}

/**
 * Turns an ajv error into a ValidationError whose `field` is the dotted path of the
 * offending value (for a missing or unknown key: the key's own path) and whose `rule` is a
 * sentence a user can act on (for an unknown key, the closest known key as "did you mean").
 * Needs ajv's `verbose` option for that hint. `data` is the validated document, to quote the offending value.
 */
export function schemaErrorToValidationError(error: ErrorObject, data: unknown): ValidationError {
  const path = pointerToPath(error.instancePath);
  const value = valueAt(data, error.instancePath);
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return new ValidationError(join(path, String(p['missingProperty'])), 'is required');
    case 'additionalProperties': {
      const key = String(p['additionalProperty']);
      const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const guess = closestMatch(key, known);
      return new ValidationError(join(path, key), `is not allowed (unknown key${guess === undefined ? '' : `; did you mean ${guess}?`})`);
    }
    case 'propertyNames':
      return new ValidationError(join(path, String(p['propertyName'])), 'is not an allowed key name');
    case 'enum':
      return new ValidationError(path || 'root', `must be one of ${(p['allowedValues'] as unknown[]).map(String).join(', ')}`, value);
    case 'pattern':
      return new ValidationError(path || 'root', PATTERN_RULES[String(p['pattern'])] ?? `must match ${String(p['pattern'])}`, value);
    case 'type':
      return new ValidationError(path || 'root', typeName(p['type']), value);
    case 'minItems':
      return new ValidationError(path || 'root', `must have at least ${String(p['limit'])} item${p['limit'] === 1 ? '' : 's'}`, value);
    case 'uniqueItems':
      return new ValidationError(path || 'root', `must not repeat an item (items ${String(p['j'])} and ${String(p['i'])} are equal)`, value);
    case 'minLength':
      return new ValidationError(path || 'root', 'must not be empty', value);
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return new ValidationError(path || 'root', `must be ${String(p['comparison'])} ${String(p['limit'])}`, value);
    default:
      return new ValidationError(path || 'root', error.message ?? `breaks the ${error.keyword} rule`, value);
  }
}

function valueAt(data: unknown, pointer: string): unknown {
  if (pointer === '') return data;
  let node = data;
  for (const raw of pointer.slice(1).split('/')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}
