import type { RestExecutor, RestRequest } from '../../../../framework/exchange/rest/rest-request.js';

/** What a test asserts about a request: everything the transport acts on except the parser. */
export interface RequestShape {
  readonly method: string;
  readonly path: string;
  readonly query?: Readonly<Record<string, unknown>>;
  readonly body?: Readonly<Record<string, unknown>>;
  readonly headers?: Readonly<Record<string, string>>;
  readonly scope: string;
  readonly auth: boolean;
  readonly idempotent: boolean;
}

type Answer = { readonly kind: 'body'; readonly body: unknown } | { readonly kind: 'error'; readonly error: unknown };

/**
 * A {@link RestExecutor} test double: records every request and answers with canned JSON, which
 * goes through a JSON round trip first so that the parser sees exactly what a socket would carry.
 */
export class RecordingExecutor implements RestExecutor {
  readonly requests: RestRequest<unknown>[] = [];
  private readonly answers: Answer[] = [];

  /** Queues bodies, answered in order. */
  answer(...bodies: unknown[]): this {
    for (const body of bodies) this.answers.push({ kind: 'body', body: JSON.parse(JSON.stringify(body)) as unknown });
    return this;
  }

  /** Queues a failure (for example an ExchangeError the transport would throw). */
  fail(error: unknown): this {
    this.answers.push({ kind: 'error', error });
    return this;
  }

  async execute<T>(request: RestRequest<T>): Promise<T> {
    this.requests.push(request as RestRequest<unknown>);
    const next = this.answers.shift();
    if (next === undefined) throw new Error(`no canned answer for ${request.method} ${request.path}`);
    if (next.kind === 'error') throw next.error;
    return request.parse(next.body);
  }

  /** The last request sent. */
  get last(): RestRequest<unknown> {
    const request = this.requests.at(-1);
    if (request === undefined) throw new Error('no request was sent');
    return request;
  }
}

/** The shape of a request, with only the members it carries. */
export function shapeOf(request: RestRequest<unknown>): RequestShape {
  return {
    method: request.method,
    path: request.path,
    ...(request.query === undefined ? {} : { query: request.query }),
    ...(request.body === undefined ? {} : { body: request.body }),
    ...(request.headers === undefined ? {} : { headers: request.headers }),
    scope: request.scope,
    auth: request.auth,
    idempotent: request.idempotent,
  };
}
