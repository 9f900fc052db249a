import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dec } from '../../framework/model/decimal.js';
import { ValidationError } from '../../framework/model/errors.js';
import { createRedactor, MIN_SECRET_LENGTH, REDACTED, redact } from '../../framework/log/redact.js';
import { secretArb, withSecretArb } from './redact-arbitraries.js';

describe('redact', () => {
  it('removes a known secret wherever it is embedded, without changing the input', () => {
    fc.assert(
      fc.property(secretArb.chain((s) => fc.tuple(fc.constant(s), withSecretArb(s))), ([secret, value]) => {
        const before = JSON.stringify(value, errorReplacer);
        const out = JSON.stringify(redact(value, [secret]));
        expect(before).toContain(secret);
        expect(out).not.toContain(secret);
        expect(JSON.stringify(value, errorReplacer)).toBe(before);
      }),
    );
  });

  it('changes nothing when no secret and no secret-named key is present', () => {
    const safeKey = fc.string({ unit: 'binary' }).filter((k) => !/api[_-]?key|secret|signature|authorization|password|token/i.test(k));
    const json = fc.letrec<{ v: unknown }>((tie) => ({
      v: fc.oneof({ depthSize: 'small' }, fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(safeKey, tie('v'), { maxKeys: 3 })),
    })).v;
    fc.assert(
      fc.property(json, (v) => {
        expect(redact(v)).toEqual(v);
      }),
    );
  });

  it('replaces the values of secret-named keys, at any depth', () => {
    const input = { apiKey: 'a', nested: [{ secret_key: { deep: 1 }, Authorization: 'Basic xyz', X_SIGNATURE: 's', refreshToken: 't', pass: 'kept' }], api_key: null };
    expect(redact(input)).toEqual({ apiKey: REDACTED, nested: [{ secret_key: REDACTED, Authorization: REDACTED, X_SIGNATURE: REDACTED, refreshToken: REDACTED, pass: 'kept' }], api_key: REDACTED });
  });

  it('replaces every occurrence, longest secret first, and ignores too-short secrets', () => {
    const r = createRedactor(['abcdefgh', 'abcdefghijkl', 'x'.repeat(MIN_SECRET_LENGTH - 1)]);
    expect(r.text('abcdefghijkl abcdefgh abcdefghabcdefgh xxxxx')).toBe(`${REDACTED} ${REDACTED} ${REDACTED}${REDACTED} xxxxx`);
  });

  it('turns errors into records with a redacted message, stack and own fields', () => {
    const error = new ValidationError('exchange.credentials', 'bad key topsecret-123', 'topsecret-123');
    const out = redact({ error }, ['topsecret-123']) as { error: Record<string, unknown> };
    expect(out.error['name']).toBe('ValidationError');
    expect(out.error['message']).toBe(`exchange.credentials: bad key ${REDACTED} (got "${REDACTED}")`);
    expect(String(out.error['stack'])).toContain(`bad key ${REDACTED}`);
    expect(out.error['field']).toBe('exchange.credentials');
    expect(JSON.stringify(out)).not.toContain('topsecret-123');
  });

  it('renders decimals, bigints, maps and cycles safely', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = cyclic;
    expect(redact({ price: dec('1.50'), n: 10n, m: new Map([['token', 'x'], ['k', 'v']]), cyclic })).toEqual({
      price: '1.5',
      n: '10',
      m: { token: REDACTED, k: 'v' },
      cyclic: { a: 1, self: '[circular]' },
    });
    const parsed = JSON.parse('{"__proto__":{"token":"x"}}') as unknown;
    expect(JSON.stringify(redact(parsed))).toBe('{"__proto__":{"token":"[redacted]"}}');
  });
});

// JSON.stringify drops an Error's message and stack; keep them so the test sees the secret.
function errorReplacer(_key: string, v: unknown): unknown {
  return v instanceof Error ? { message: v.message, stack: v.stack } : v;
}
