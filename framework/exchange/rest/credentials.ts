import { inspect } from 'node:util';
import { ValidationError } from '../../model/errors.js';

/** How requests are authenticated (document 000, Authentication). */
export type AuthScheme = 'basic' | 'hs256';

/** The documented bound of the HS256 `window`, in milliseconds (exchange-notes.md). */
export const MAX_SIGNATURE_WINDOW_MS = 60_000;

/** What a caller (config file, environment) supplies to build {@link ApiCredentials}. */
export interface ApiCredentialsInput {
  readonly apiKey: string;
  readonly secretKey: string;
  readonly scheme: AuthScheme;
  /** HS256 only: how far (ms) the request timestamp may be from the exchange's clock; 1..60000. */
  readonly window?: number;
}

const REDACTED = '[redacted]';
// Both parts go into `key:secret` texts that the exchange splits on ':', and into HTTP headers.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/**
 * An API key pair, validated. The key and the secret live in private fields and every rendering
 * (String(), JSON.stringify, util.inspect, template literals) redacts them, so a credentials object
 * that ends up in a log line or an error leaks nothing. Validation errors never echo the values.
 */
export class ApiCredentials {
  readonly #apiKey: string;
  readonly #secretKey: string;
  readonly scheme: AuthScheme;
  readonly window: number | undefined;

  private constructor(input: ApiCredentialsInput) {
    this.#apiKey = input.apiKey;
    this.#secretKey = input.secretKey;
    this.scheme = input.scheme;
    this.window = input.window;
  }

  /** Validates `input` and throws {@link ValidationError} naming the field and the rule. */
  static from(input: ApiCredentialsInput): ApiCredentials {
    const raw = input as Partial<Record<keyof ApiCredentialsInput, unknown>>;
    checkSecretText('apiKey', raw.apiKey);
    if ((raw.apiKey as string).includes(':')) throw new ValidationError('apiKey', 'must not contain ":"');
    checkSecretText('secretKey', raw.secretKey);
    if (raw.scheme !== 'basic' && raw.scheme !== 'hs256') {
      throw new ValidationError('scheme', 'must be "basic" or "hs256"', raw.scheme);
    }
    if (raw.window !== undefined) {
      if (raw.scheme !== 'hs256') throw new ValidationError('window', 'only applies to the hs256 scheme', raw.window);
      const w = raw.window;
      if (typeof w !== 'number' || !Number.isInteger(w) || w < 1 || w > MAX_SIGNATURE_WINDOW_MS) {
        throw new ValidationError('window', `must be an integer number of ms in 1..${MAX_SIGNATURE_WINDOW_MS}`, w);
      }
    }
    return new ApiCredentials(input);
  }

  /** The API key (public half, still kept out of logs). */
  get apiKey(): string {
    return this.#apiKey;
  }

  /** The secret key; read only by the signer. */
  get secretKey(): string {
    return this.#secretKey;
  }

  /** A redacted rendering. */
  toString(): string {
    return `ApiCredentials(${this.scheme}${this.window === undefined ? '' : `, window ${this.window} ms`})`;
  }

  /** A redacted form for JSON.stringify. */
  toJSON(): Record<string, unknown> {
    return { scheme: this.scheme, window: this.window, apiKey: REDACTED, secretKey: REDACTED };
  }

  /** A redacted form for util.inspect and console.log. */
  [inspect.custom](): string {
    return this.toString();
  }
}

function checkSecretText(field: string, value: unknown): void {
  // The value itself is never put in the error: it is a secret.
  if (typeof value !== 'string') throw new ValidationError(field, 'must be a string');
  if (value.length === 0) throw new ValidationError(field, 'must not be empty');
  if (value.trim() !== value) throw new ValidationError(field, 'must not start or end with whitespace');
  if (CONTROL_CHARS.test(value)) throw new ValidationError(field, 'must not contain control characters');
}
