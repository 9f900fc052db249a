import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { ExchangeConfig } from '../../framework/config/bot-config.js';
import { loadCredentials } from '../../framework/config/secrets.js';
import { ValidationError } from '../../framework/model/errors.js';

const API_KEY = 'ak_live_0123456789abcdef';
const SECRET = 'sk_live_fedcba9876543210';

function exchange(keyFile?: string, auth: 'hs256' | 'basic' = 'hs256'): ExchangeConfig {
  return {
    baseUrl: 'https://api.example.com/api/3',
    wsBaseUrl: 'wss://api.example.com/api/3',
    auth,
    credentials: { apiKeyEnv: 'BOT_KEY', secretKeyEnv: 'BOT_SECRET', ...(keyFile === undefined ? {} : { keyFile }) },
  };
}

function keyFile(text: string, name = 'keys.yaml'): string {
  const file = join(mkdtempSync(join(tmpdir(), 'tradeloop-keys-')), name);
  writeFileSync(file, text);
  chmodSync(file, 0o600);
  return file;
}

function errorOf(run: () => unknown): ValidationError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    const e = error as ValidationError;
    // Whatever went wrong, no part of a key reaches the message.
    expect(e.message).not.toContain(API_KEY);
    expect(e.message).not.toContain(SECRET);
    return e;
  }
  throw new Error('expected a ValidationError');
}

describe('loadCredentials', () => {
  it('reads the environment variables the config names, before the key file', () => {
    const file = keyFile(`apiKey: other-key\nsecretKey: other-secret\n`);
    const c = loadCredentials(exchange(file, 'basic'), { BOT_KEY: API_KEY, BOT_SECRET: SECRET, TRADELOOP_API_KEY: 'wrong' });
    expect([c.apiKey, c.secretKey, c.scheme]).toEqual([API_KEY, SECRET, 'basic']);
    // The result never renders its keys.
    expect(`${String(c)} ${JSON.stringify(c)} ${inspect(c)}`).not.toContain(SECRET);
  });

  it('falls back to a YAML or JSON key file when the variables are unset or empty', () => {
    const yaml = loadCredentials(exchange(keyFile(`apiKey: ${API_KEY}\nsecretKey: ${SECRET}\n`)), { BOT_KEY: '' });
    expect([yaml.apiKey, yaml.secretKey, yaml.scheme]).toEqual([API_KEY, SECRET, 'hs256']);
    const json = loadCredentials(exchange(keyFile(JSON.stringify({ apiKey: API_KEY, secretKey: SECRET }), 'keys.json')), {});
    expect([json.apiKey, json.secretKey]).toEqual([API_KEY, SECRET]);
  });

  it('names the missing variables when there is no key file', () => {
    expect(errorOf(() => loadCredentials(exchange(), {})).rule).toBe('environment variables BOT_KEY and BOT_SECRET not set, and no keyFile configured');
    const e = errorOf(() => loadCredentials(exchange(), { BOT_KEY: API_KEY }));
    expect([e.field, e.rule]).toEqual(['exchange.credentials', 'environment variable BOT_SECRET not set, and no keyFile configured']);
  });

  it('names the key file and what is wrong with it, never its contents', () => {
    const missing = join(tmpdir(), 'no-such-tradeloop-keys.yaml');
    expect([errorOf(() => loadCredentials(exchange(missing), {})).field, errorOf(() => loadCredentials(exchange(missing), {})).rule]).toEqual(['exchange.credentials.keyFile', 'no such file']);

    const noSecret = keyFile(`apiKey: ${API_KEY}\n`);
    expect(errorOf(() => loadCredentials(exchange(noSecret), {})).rule).toBe(`key file ${noSecret} has no secretKey`);

    const list = keyFile(`- ${API_KEY}\n- ${SECRET}\n`);
    expect(errorOf(() => loadCredentials(exchange(list), {})).rule).toBe(`key file ${list} must hold a mapping with apiKey and secretKey`);

    const broken = keyFile(`apiKey: ${API_KEY}\n secretKey: "${SECRET}\n`);
    expect(errorOf(() => loadCredentials(exchange(broken), {})).rule).toMatch(new RegExp(`^key file ${broken} is not valid YAML or JSON \\(at line \\d+, column \\d+\\)$`));

    const numeric = keyFile(`apiKey: ${API_KEY}\nsecretKey: 12345678\n`);
    expect(errorOf(() => loadCredentials(exchange(numeric), {})).rule).toBe(`key file ${numeric}: secretKey must be a string`);
  });

  it('restates the key checks of ApiCredentials with the source of the value', () => {
    const e = errorOf(() => loadCredentials(exchange(), { BOT_KEY: `${API_KEY}:x`, BOT_SECRET: SECRET }));
    expect([e.field, e.rule]).toEqual(['exchange.credentials', 'environment variable BOT_KEY must not contain ":"']);
    expect(errorOf(() => loadCredentials(exchange(), { BOT_KEY: API_KEY, BOT_SECRET: ` ${SECRET}` })).rule).toBe('environment variable BOT_SECRET must not start or end with whitespace');
  });

  it('passes the hs256 signature window on, and refuses it with basic auth', () => {
    const env = { BOT_KEY: API_KEY, BOT_SECRET: SECRET };
    expect(loadCredentials({ ...exchange(), signatureWindowMs: 5000 }, env).window).toBe(5000);
    expect(loadCredentials(exchange(), env).window).toBeUndefined();
    const e = errorOf(() => loadCredentials({ ...exchange(undefined, 'basic'), signatureWindowMs: 5000 }, env));
    expect([e.field, e.rule]).toEqual(['exchange.signatureWindowMs', 'only applies to the hs256 scheme']);
  });

  it('requires the exchange section', () => {
    expect(errorOf(() => loadCredentials(undefined, { BOT_KEY: API_KEY, BOT_SECRET: SECRET })).field).toBe('exchange');
  });
});
