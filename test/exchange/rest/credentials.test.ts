import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ApiCredentials } from '../../../framework/exchange/rest/credentials.js';
import type { ApiCredentialsInput } from '../../../framework/exchange/rest/credentials.js';
import { ValidationError } from '../../../framework/model/errors.js';

const KEY = 'KEY-abcdef0123456789';
const SECRET = 'SECRET-zyxwvu9876543210';

function failure(input: Partial<Record<keyof ApiCredentialsInput, unknown>>): ValidationError {
  try {
    ApiCredentials.from(input as ApiCredentialsInput);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error('expected a ValidationError');
}

describe('ApiCredentials', () => {
  it('keeps key, secret, scheme and window', () => {
    const c = ApiCredentials.from({ apiKey: KEY, secretKey: SECRET, scheme: 'hs256', window: 5000 });
    expect([c.apiKey, c.secretKey, c.scheme, c.window]).toEqual([KEY, SECRET, 'hs256', 5000]);
  });

  it('redacts key and secret in every rendering', () => {
    const c = ApiCredentials.from({ apiKey: KEY, secretKey: SECRET, scheme: 'basic' });
    const renderings = [
      String(c), `${c}`, JSON.stringify(c), JSON.stringify({ nested: { c } }), inspect(c), inspect({ c }, { depth: 5, showHidden: true }),
      Object.keys(c).join(','),
    ];
    for (const text of renderings) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(SECRET);
    }
    expect(JSON.parse(JSON.stringify(c))).toEqual({ scheme: 'basic', apiKey: '[redacted]', secretKey: '[redacted]' });
  });

  it('names the field and rule of bad input without echoing secrets', () => {
    const cases: Array<[Partial<Record<keyof ApiCredentialsInput, unknown>>, string]> = [
      [{ apiKey: '', secretKey: SECRET, scheme: 'basic' }, 'apiKey'],
      [{ apiKey: `${KEY}:x`, secretKey: SECRET, scheme: 'basic' }, 'apiKey'],
      [{ apiKey: KEY, secretKey: ` ${SECRET}`, scheme: 'basic' }, 'secretKey'],
      [{ apiKey: KEY, secretKey: `${SECRET}\n`, scheme: 'basic' }, 'secretKey'],
      [{ apiKey: KEY, secretKey: 42, scheme: 'basic' }, 'secretKey'],
      [{ apiKey: KEY, secretKey: SECRET, scheme: 'HS256' }, 'scheme'],
      [{ apiKey: KEY, secretKey: SECRET, scheme: 'hs256', window: 0 }, 'window'],
      [{ apiKey: KEY, secretKey: SECRET, scheme: 'hs256', window: 60_001 }, 'window'],
      [{ apiKey: KEY, secretKey: SECRET, scheme: 'hs256', window: 1.5 }, 'window'],
      [{ apiKey: KEY, secretKey: SECRET, scheme: 'basic', window: 1000 }, 'window'],
    ];
    for (const [input, field] of cases) {
      const error = failure(input);
      expect(error.field).toBe(field);
      expect(error.rule.length).toBeGreaterThan(0);
      expect(`${error.message} ${inspect(error)}`).not.toContain(SECRET);
      expect(`${error.message}`).not.toContain(KEY);
    }
  });

  it('accepts the window bounds', () => {
    expect(ApiCredentials.from({ apiKey: KEY, secretKey: SECRET, scheme: 'hs256', window: 1 }).window).toBe(1);
    expect(ApiCredentials.from({ apiKey: KEY, secretKey: SECRET, scheme: 'hs256', window: 60_000 }).window).toBe(60_000);
  });
});
