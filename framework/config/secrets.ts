import { ApiCredentials } from '../exchange/rest/credentials.js';
import { ValidationError } from '../model/errors.js';
import type { ExchangeConfig } from './bot-config.js';
import { readYamlFile } from './read-yaml-file.js';

const FIELD = 'exchange.credentials';

/**
 * The API key pair of a live bot: from the environment variables the config names when both are
 * set, else from the key file (YAML or JSON with `apiKey` and `secretKey`). Errors name the
 * variable or the file and never contain a key. The result redacts itself in every rendering.
 */
export function loadCredentials(exchange: ExchangeConfig | undefined, env: NodeJS.ProcessEnv = process.env): ApiCredentials {
  if (exchange === undefined) throw new ValidationError('exchange', 'is required to trade live (baseUrl, wsBaseUrl, credentials)');
  const { apiKeyEnv, secretKeyEnv, keyFile } = exchange.credentials;
  const apiKey = nonEmpty(env[apiKeyEnv]);
  const secretKey = nonEmpty(env[secretKeyEnv]);
  if (apiKey !== undefined && secretKey !== undefined) {
    return build(apiKey, secretKey, exchange, { apiKey: `environment variable ${apiKeyEnv}`, secretKey: `environment variable ${secretKeyEnv}` });
  }
  if (keyFile === undefined) {
    // One variable set and the other not is a half-configured shell: say which one is missing.
    const missing = [apiKey === undefined ? apiKeyEnv : undefined, secretKey === undefined ? secretKeyEnv : undefined].filter((n) => n !== undefined);
    throw new ValidationError(FIELD, `environment variable${missing.length > 1 ? 's' : ''} ${missing.join(' and ')} not set, and no keyFile configured`);
  }
  return fromKeyFile(keyFile, exchange);
}

function fromKeyFile(file: string, exchange: ExchangeConfig): ApiCredentials {
  const where = `key file ${file}`;
  let data: unknown;
  try {
    data = readYamlFile(file, `${FIELD}.keyFile`);
  } catch (error) {
    // A YAML error quotes the offending line, which may hold a key: keep only where it is.
    if (error instanceof ValidationError && error.field === file) {
      const at = /at line \d+, column \d+/.exec(error.rule)?.[0];
      throw new ValidationError(`${FIELD}.keyFile`, `${where} is not valid YAML or JSON${at === undefined ? '' : ` (${at})`}`);
    }
    throw error;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ValidationError(`${FIELD}.keyFile`, `${where} must hold a mapping with apiKey and secretKey`);
  }
  const o = data as Record<string, unknown>;
  for (const key of ['apiKey', 'secretKey'] as const) {
    if (o[key] === undefined) throw new ValidationError(`${FIELD}.keyFile`, `${where} has no ${key}`);
  }
  return build(o['apiKey'], o['secretKey'], exchange, { apiKey: `${where}: apiKey`, secretKey: `${where}: secretKey` });
}

function build(apiKey: unknown, secretKey: unknown, exchange: ExchangeConfig, sources: Record<'apiKey' | 'secretKey', string>): ApiCredentials {
  try {
    const window = exchange.signatureWindowMs;
    return ApiCredentials.from({ apiKey: apiKey as string, secretKey: secretKey as string, scheme: exchange.auth, ...(window === undefined ? {} : { window }) });
  } catch (error) {
    if (error instanceof ValidationError && error.field === 'window') throw new ValidationError('exchange.signatureWindowMs', error.rule, error.value);
    // ApiCredentials.from never quotes the values; restate the field as where the value came from.
    if (error instanceof ValidationError && (error.field === 'apiKey' || error.field === 'secretKey')) {
      throw new ValidationError(FIELD, `${sources[error.field]} ${error.rule}`);
    }
    throw error;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
