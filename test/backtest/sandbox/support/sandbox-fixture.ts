import { afterEach } from 'vitest';
import type { ExchangeError } from '../../../../framework/exchange/errors.js';
import { ApiCredentials } from '../../../../framework/exchange/rest/credentials.js';
import type { RestClient } from '../../../../framework/exchange/rest/rest-client.js';
import type { RestTransport } from '../../../../framework/exchange/rest/rest-transport.js';
import { TradingSession } from '../../../../framework/exchange/ws/trading-session.js';
import { ClientVenuePort } from '../../../../framework/execution/client-venue-port.js';
import { LiveClock, type Clock } from '../../../../framework/time/clock.js';
import { parseSymbolInfo, type SymbolInfo } from '../../../../framework/model/resources/symbol.js';
import type { RecordedFrame } from '../../../../backtest/recording/recording-format.js';
import { SandboxServer } from '../../../../backtest/sandbox/sandbox-server.js';
import type { SandboxOptions } from '../../../../backtest/sandbox/sandbox-config.js';
import { FakeVenue } from './fake-venue.js';

/** One spot symbol with a simple grid. */
export const SYMBOLS: Record<string, SymbolInfo> = {
  BTCUSDT: parseSymbolInfo({
    type: 'spot', base_currency: 'BTC', quote_currency: 'USDT', tick_size: '0.01', quantity_increment: '0.0001',
    take_rate: '0.001', make_rate: '0.0005', fee_currency: 'USDT', expiry: null,
  }),
};

/** A market source the test feeds frame by frame (the market runs as fast as frames are pushed). */
export class PushedMarket {
  private readonly queue: RecordedFrame[] = [];
  private wake: (() => void) | undefined;
  private ended = false;
  /** Time of the source before its first frame (the sandbox's `startTime`). */
  static readonly START = 1_700_000_000_000;
  private t = PushedMarket.START;

  /** Pushes a `ws/public` message at the next millisecond. */
  push(msg: Record<string, unknown>): void {
    this.queue.push({ t: ++this.t, src: 'ws/public', msg });
    this.wake?.();
  }

  /** Pushes a recorded `rest` answer (`{method, path, status, body}`) at the next millisecond. */
  pushRest(msg: Record<string, unknown>): void {
    this.queue.push({ t: ++this.t, src: 'rest', msg });
    this.wake?.();
  }

  /** Moves the source's clock on by `ms` (the next frame comes that much later). */
  skip(ms: number): void {
    this.t += ms;
  }

  /** Ends the source. */
  end(): void {
    this.ended = true;
    this.wake?.();
  }

  /** The frames, as the server's `frames` source. */
  async *frames(): AsyncGenerator<RecordedFrame> {
    for (;;) {
      const next = this.queue.shift();
      if (next) {
        yield next;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}

/** A sandbox over a FakeVenue and a pushed market, on 127.0.0.1 port 0. */
export async function startSandbox(overrides: Partial<SandboxOptions> = {}): Promise<{ server: SandboxServer; market: PushedMarket; venue: () => FakeVenue }> {
  const market = new PushedMarket();
  let venue: FakeVenue | undefined;
  const server = await SandboxServer.start({
    venue: (context) => (venue = new FakeVenue(context)),
    market: { kind: 'frames', symbols: SYMBOLS, startTime: PushedMarket.START, frames: () => market.frames() },
    speed: Infinity,
    accounts: [{ id: 'main', spot: { USDT: '1000', BTC: '1' }, wallet: { USDT: '500' } }],
    seed: 'test-seed',
    ...overrides,
  });
  return {
    server,
    market,
    venue: () => {
      if (!venue) throw new Error('venue not built');
      return venue;
    },
  };
}

/** A book snapshot and a trade-free market for BTCUSDT. */
export function bookSnapshot(sequence = 1): Record<string, unknown> {
  return {
    ch: 'orderbook/full',
    snapshot: { BTCUSDT: { t: 1_700_000_000_000, s: sequence, a: [['101.00', '1.5'], ['102.00', '2']], b: [['99.00', '1'], ['98.00', '3']] } },
  };
}

/** A public trade notification. */
export function tradeFrame(price: string, quantity = '0.1', id = 1): Record<string, unknown> {
  return { ch: 'trades', update: { BTCUSDT: [{ t: 1_700_000_000_100 + id, i: id, p: price, q: quantity, s: 'sell' }] } };
}

/** Resolves once `check` holds (polling), or rejects after `ms`. */
export async function eventually(check: () => boolean, ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The exchange error code `request` was refused with; undefined when it succeeded (or failed otherwise). */
export async function codeOf(request: Promise<unknown>): Promise<number | undefined> {
  return ((await request.then(() => undefined, (e: unknown) => e)) as ExchangeError | undefined)?.exchangeCode;
}

/** A trading-stream session on `server` with its first API key (hs256), on `clock` (default the wall clock). */
export function tradingSessionOf(server: SandboxServer, clock: Clock = new LiveClock()): TradingSession {
  const key = server.apiKeys[0]!;
  return TradingSession.create({
    url: `${server.wsBaseUrl}/api/3/ws/trading`, clock,
    credentials: ApiCredentials.from({ apiKey: key.apiKey, secretKey: key.secretKey, scheme: 'hs256' }),
  });
}

/** What a test opened, closed after it, the last opened first. */
export class Teardown {
  private readonly closers: (() => Promise<void> | void)[] = [];

  /** Closes each of `closers` after the test, before what was added earlier. */
  add(...closers: (() => Promise<void> | void)[]): void {
    this.closers.push(...closers);
  }

  /** A started sandbox: its REST transport, then its server, closed after what the test adds later. */
  sandbox<T extends { readonly server: SandboxServer; readonly transport: RestTransport }>(started: T): T {
    this.add(() => started.server.close(), () => started.transport.close());
    return started;
  }

  /** Closes everything added, last first. */
  async close(): Promise<void> {
    for (const close of this.closers.splice(0).reverse()) await close();
  }
}

/** A {@link Teardown} closed after each test of the file. */
export function teardownAfterEach(): Teardown {
  const teardown = new Teardown();
  afterEach(() => teardown.close());
  return teardown;
}

/**
 * A started venue port on `account` of `server`, over a trading session with its first key on
 * `clock` and `rest`; both closed after the test.
 */
export async function startedVenuePort(
  teardown: Teardown, server: SandboxServer, rest: RestClient, account: 'spot' | 'margin' | 'futures', clock: Clock,
): Promise<ClientVenuePort> {
  const session = tradingSessionOf(server, clock);
  teardown.add(() => session.close());
  const port = new ClientVenuePort({ session, rest, account });
  teardown.add(() => port.close());
  await port.start(3000);
  return port;
}
