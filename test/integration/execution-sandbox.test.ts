import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientOrderIdGenerator } from '../../framework/execution/client-order-ids.js';
import { ClientVenuePort } from '../../framework/execution/client-venue-port.js';
import { ExecutionAdapter } from '../../framework/execution/execution-adapter.js';
import type { UnknownOrderPolicy } from '../../framework/execution/reconciler.js';
import { ApiCredentials } from '../../framework/exchange/rest/credentials.js';
import { RestClient } from '../../framework/exchange/rest/rest-client.js';
import { RestTransport } from '../../framework/exchange/rest/rest-transport.js';
import { RetryPolicy } from '../../framework/exchange/rest/retry-policy.js';
import { TradingSession } from '../../framework/exchange/ws/trading-session.js';
import { dec } from '../../framework/model/decimal.js';
import type { OrderSpec } from '../../framework/model/intent.js';
import type { StrategyReport } from '../../framework/model/strategy-report.js';
import { LiveClock } from '../../framework/time/clock.js';
import type { SandboxServer } from '../../backtest/sandbox/sandbox-server.js';
import type { VenueFactory } from '../../backtest/sandbox/sandbox-config.js';
import { simulatedVenueFactory } from '../../backtest/sandbox/simulated-venue-factory.js';
import { VenueRejection, type Venue } from '../../backtest/venue/venue-types.js';
import { bookSnapshot, eventually, startSandbox, tradeFrame, type PushedMarket } from '../backtest/sandbox/support/sandbox-fixture.js';
import { executed } from '../support/executed.js';

/** A TCP relay between the client and the sandbox that can cut every connection at once. */
class Relay {
  private readonly pairs = new Set<[Socket, Socket]>();
  private constructor(private readonly server: Server, readonly port: number) {}

  static async start(targetPort: number): Promise<Relay> {
    const relay: { value?: Relay } = {};
    const server = createServer((client) => {
      const upstream = connect(targetPort, '127.0.0.1');
      const pair: [Socket, Socket] = [client, upstream];
      relay.value?.pairs.add(pair);
      client.pipe(upstream).pipe(client);
      const end = () => { client.destroy(); upstream.destroy(); relay.value?.pairs.delete(pair); };
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    relay.value = new Relay(server, address.port);
    return relay.value;
  }

  /** Cuts every connection now, both ways, before anything else is written. */
  dropAll(): void {
    for (const [a, b] of this.pairs) { a.destroy(); b.destroy(); }
    this.pairs.clear();
  }

  close(): Promise<void> {
    this.dropAll();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Hooks into the sandbox venue's placeOrder: cut the connection before or after the order is made. */
interface PlaceFault { mode?: 'before' | 'after'; cut?: () => void }

function faultyVenue(fault: PlaceFault): VenueFactory {
  const inner = simulatedVenueFactory();
  return (context) => {
    const venue = inner(context);
    return new Proxy(venue, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (key !== 'placeOrder' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
        return (...args: Parameters<Venue['placeOrder']>) => {
          const mode = fault.mode;
          fault.mode = undefined;
          if (mode === 'before') {
            fault.cut?.();
            throw new VenueRejection(500, 'connection cut before execution');
          }
          const order = target.placeOrder(...args);
          if (mode === 'after') fault.cut?.();
          return order;
        };
      },
    });
  };
}

let server: SandboxServer | undefined;
const closers: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await server?.close();
  server = undefined;
});

interface Harness {
  s: SandboxServer; market: PushedMarket; adapter: ExecutionAdapter; rest: RestClient; relay: Relay; fault: PlaceFault;
  reports: StrategyReport[];
}

async function harness(unknownOrders: UnknownOrderPolicy = 'adopt', beforeStart?: (rest: RestClient) => Promise<void>): Promise<Harness> {
  const fault: PlaceFault = {};
  const started = await startSandbox({ venue: faultyVenue(fault) });
  const s = (server = started.server);
  started.market.push(bookSnapshot());
  await eventually(() => s.framesServed === 1);
  const relay = await Relay.start(Number(new URL(s.wsBaseUrl).port));
  closers.push(() => relay.close());
  fault.cut = () => relay.dropAll();
  const key = s.apiKeys[0]!;
  const credentials = ApiCredentials.from({ apiKey: key.apiKey, secretKey: key.secretKey, scheme: 'hs256' });
  const transport = new RestTransport({ baseUrl: s.baseUrl, credentials, retryPolicy: new RetryPolicy({ maxAttempts: 1 }), timeouts: { overallMs: 3000 } });
  closers.push(() => transport.close());
  const rest = new RestClient(transport);
  await beforeStart?.(rest);
  const session = TradingSession.create({
    url: `ws://127.0.0.1:${relay.port}/api/3/ws/trading`, clock: new LiveClock(), credentials,
    backoff: { initialMs: 20, maxMs: 50 }, pingIntervalMs: 0, requestTimeoutMs: 2000,
  });
  closers.push(() => session.close());
  const port = new ClientVenuePort({ session, rest });
  closers.push(() => port.close());
  await port.start(3000);
  const clock = new LiveClock();
  const adapter = new ExecutionAdapter({
    venue: port, ids: new ClientOrderIdGenerator('e2e', clock), clock, unknownOrders,
    currencies: () => ({ base: 'BTC', quote: 'USDT', fee: 'USDT' }), recovery: { retryDelayMs: 50 },
  });
  const reports: StrategyReport[] = [];
  const sub = adapter.reports$.subscribe((r) => reports.push(r));
  closers.push(() => { sub.unsubscribe(); adapter.stop(); });
  await adapter.start();
  return { s, market: started.market, adapter, rest, relay, fault, reports };
}

const buy = (price: string, quantity = '0.5'): OrderSpec => ({ symbol: 'BTCUSDT', side: 'buy', type: 'limit', quantity: dec(quantity), price: dec(price) });

describe('ExecutionAdapter + ClientVenuePort against the sandbox (SimulatedVenue) over loopback', () => {
  it('place, replace, cancel, order list; fill reports reach the tracker and the books', async () => {
    const { adapter, rest, market, reports } = await harness();
    await executed(adapter, { kind: 'place', intentId: 'p1', strategyId: 's', ...buy('95') });
    const [placed] = adapter.openOrders('s');
    expect(placed?.status).toBe('new');
    const firstId = placed!.clientOrderId;

    await executed(adapter, { kind: 'replace', intentId: 'r1', strategyId: 's', clientOrderId: firstId, quantity: dec('0.5'), price: dec('99.5') });
    const [replacement] = adapter.openOrders('s');
    expect(replacement?.clientOrderId).not.toBe(firstId);
    expect(replacement?.intentId).toBe('r1');
    await eventually(() => adapter.account.get(firstId)?.status === 'canceled');

    market.push(tradeFrame('99', '5', 2));
    await eventually(() => replacement?.status === 'filled');
    expect(replacement!.fills.map((f) => f.quantity.toFixed())).toEqual(['0.5']);
    expect(adapter.account.positions.position('s', 'BTCUSDT')?.quantity.toFixed()).toBe('0.5');
    expect(reports.some((r) => r.kind === 'order' && r.intentId === 'r1' && r.report.report_type === 'trade')).toBe(true);
    await eventually(() => adapter.account.balance('BTC')?.available.toFixed() === '1.5');
    const usdt = (await rest.spot.getBalance('USDT'));
    expect(dec('1000').plus(adapter.account.positions.flow('s', 'USDT')).toFixed()).toBe(usdt.available.plus(usdt.reserved).toFixed());

    const sell = (price: string): OrderSpec => ({ symbol: 'BTCUSDT', side: 'sell', type: 'limit', quantity: dec('0.1'), price: dec(price) });
    await executed(adapter, { kind: 'orderList', intentId: 'l1', strategyId: 's', contingencyType: 'oneCancelOther', orders: [sell('110'), sell('120')] });
    const list = adapter.openOrders('s');
    expect(list).toHaveLength(2);
    expect(new Set(list.map((t) => t.order?.order_list_id))).toEqual(new Set([list[0]!.clientOrderId]));

    await executed(adapter, { kind: 'cancel', intentId: 'c1', strategyId: 's', clientOrderId: list[0]!.clientOrderId });
    await executed(adapter, { kind: 'cancelAll', intentId: 'c2', strategyId: 's' });
    expect(adapter.openOrders('s')).toEqual([]);
    expect(await rest.spot.getActiveOrders()).toEqual([]);
    expect(reports.filter((r) => r.kind === 'rejected')).toEqual([]);
  });

  it('reconciliation adopts an order placed behind the adapter\'s back, or cancels it', async () => {
    const adopting = await harness('adopt', async (rest) => {
      await rest.spot.createOrder({ client_order_id: 'manual1', symbol: 'BTCUSDT', side: 'buy', quantity: '0.1', price: '90' });
    });
    expect(adopting.adapter.account.get('manual1')?.status).toBe('new');
    expect(adopting.adapter.account.get('manual1')?.intentId).toBeUndefined();
    await adopting.rest.spot.createOrder({ client_order_id: 'manual2', symbol: 'BTCUSDT', side: 'buy', quantity: '0.1', price: '90' });
    // A reconnect triggers another reconciliation, which finds the new stranger.
    adopting.relay.dropAll();
    await eventually(() => adopting.adapter.account.get('manual2')?.status === 'new');
    for (const close of closers.splice(0).reverse()) await close();
    await server?.close();

    const canceling = await harness('cancel', async (rest) => {
      await rest.spot.createOrder({ client_order_id: 'manual3', symbol: 'BTCUSDT', side: 'buy', quantity: '0.1', price: '90' });
    });
    expect(canceling.adapter.account.get('manual3')).toBeUndefined();
    expect(await canceling.rest.spot.getActiveOrders()).toEqual([]);
  });

  it('connection cut after the order was made: lookup adopts it, exactly one order', async () => {
    const { adapter, rest, fault, reports } = await harness();
    fault.mode = 'after';
    await executed(adapter, { kind: 'place', intentId: 'p1', strategyId: 's', ...buy('95') });
    const active = await rest.spot.getActiveOrders();
    expect(active).toHaveLength(1);
    expect(reports.filter((r) => r.kind === 'accepted').map((r) => r.kind === 'accepted' && r.orders[0]?.client_order_id)).toEqual([active[0]?.client_order_id]);
    expect(adapter.openOrders('s').map((t) => t.clientOrderId)).toEqual([active[0]?.client_order_id]);
  });

  it('connection cut before the order was made: not found, sent again under the same id, exactly one order', async () => {
    const { adapter, rest, fault, reports } = await harness();
    fault.mode = 'before';
    await executed(adapter, { kind: 'place', intentId: 'p1', strategyId: 's', ...buy('95') });
    const active = await rest.spot.getActiveOrders();
    expect(active.map((o) => o.client_order_id)).toEqual(adapter.openOrders('s').map((t) => t.clientOrderId));
    expect(active).toHaveLength(1);
    expect(reports.map((r) => r.kind).filter((k) => k !== 'order')).toEqual(['accepted']);
  });
});
