import { ValidationError } from '../model/errors.js';

/**
 * Key names that hold a secret when their value is text, compared without case, `_` and `-`
 * (`apiKey`, `api_key`, `SECRET-KEY`...). Names such as `apiKeyEnv` are not in the list: they name
 * where a secret lives, which is what the config is for.
 */
const SECRET_KEY_NAMES = new Set(['apikey', 'apisecret', 'secret', 'secretkey', 'password', 'passphrase', 'privatekey']);

/** The rule a config breaks by holding a key. */
export const SECRET_IN_CONFIG_RULE = 'API keys never go in the config: name an environment variable or a key file';

/** True when `key` names a secret (see {@link SECRET_KEY_NAMES}). */
export function isSecretKeyName(key: string): boolean {
  return SECRET_KEY_NAMES.has(key.replace(/[_-]/g, '').toLowerCase());
}

/**
 * Throws a ValidationError at the first key anywhere in `raw` (free-form sections included) that
 * names a secret and holds text. The value is not quoted in the error: it is likely a real key.
 */
export function refuseSecrets(raw: unknown, path = ''): void {
  if (Array.isArray(raw)) {
    raw.forEach((item, i) => refuseSecrets(item, `${path}[${i}]`));
    return;
  }
  if (typeof raw !== 'object' || raw === null) return;
  for (const [key, value] of Object.entries(raw)) {
    const at = path === '' ? key : `${path}.${key}`;
    if (typeof value === 'string' && isSecretKeyName(key)) throw new ValidationError(at, SECRET_IN_CONFIG_RULE);
    refuseSecrets(value, at);
  }
}
