import { afterEach, describe, expect, it } from 'vitest';
import { ApiCredentials } from '../../framework/exchange/rest/credentials.js';
import { RestClient } from '../../framework/exchange/rest/rest-client.js';
import { RestTransport } from '../../framework/exchange/rest/rest-transport.js';
import type { SandboxServer } from '../../backtest/sandbox/sandbox-server.js';
import { simulatedVenueFactory } from '../../backtest/sandbox/simulated-venue-factory.js';
import type { LatencyKind, LatencyModel } from '../../backtest/venue/matching/latency-model.js';
import { bookSnapshot, eventually, PushedMarket, startSandbox, SYMBOLS, tradingSessionOf } from '../backtest/sandbox/support/sandbox-fixture.js';

/** Records what the server asked the model, and answers small fixed delays. */
class RecordingLatency implements LatencyModel {
  readonly asked: string[] = [];
  entryDelayMs(_now: number, kind: LatencyKind): number {
    this.asked.push(`entry:${kind}`);
    return 5;
  }
  responseDelayMs(_now: number, kind: LatencyKind): number {
    this.asked.push(`response:${kind}`);
    return 5;
  }
}

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function start(latency: LatencyModel): Promise<SandboxServer> {
  const market = new PushedMarket();
  const { server } = await startSandbox({
    venue: simulatedVenueFactory(), latency,
    market: { kind: 'frames', symbols: SYMBOLS, startTime: PushedMarket.START, frames: () => market.frames() },
  });
  closers.push(() => server.close());
  market.push(bookSnapshot());
  await eventually(() => server.framesServed === 1);
  return server;
}

describe('sandbox latency model', () => {
  it('delays REST trading requests by kind, both ways, and leaves the answers unchanged', async () => {
    const latency = new RecordingLatency();
    const s = await start(latency);
    const key = s.apiKeys[0]!;
    const transport = new RestTransport({ baseUrl: s.baseUrl, credentials: ApiCredentials.from({ apiKey: key.apiKey, secretKey: key.secretKey, scheme: 'basic' }) });
    closers.push(() => transport.close());
    const client = new RestClient(transport);
    const order = await client.spot.createOrder({ client_order_id: 'lat-1', symbol: 'BTCUSDT', side: 'buy', quantity: '0.5', price: '90' });
    expect(order.status).toBe('new');
    await client.spot.replaceOrder('lat-1', { new_client_order_id: 'lat-2', quantity: '0.4', price: '90' });
    await client.spot.cancelOrder('lat-2');
    await client.spot.cancelOrders();
    await client.spot.getBalances();
    expect(latency.asked).toEqual([
      'entry:place', 'response:place', 'entry:replace', 'response:replace', 'entry:cancel', 'response:cancel',
      'entry:cancelAll', 'response:cancelAll', 'entry:query', 'response:query',
    ]);
  });

  it('delays trading-stream requests and still answers them with their id', async () => {
    const latency = new RecordingLatency();
    const s = await start(latency);
    const session = tradingSessionOf(s);
    closers.push(() => session.close());
    await session.start(3000);
    const order = await session.spot.newOrder({ client_order_id: 'ws-lat', symbol: 'BTCUSDT', side: 'buy', quantity: '0.5', price: '90' });
    expect(order.client_order_id).toBe('ws-lat');
    await session.spot.cancelOrder('ws-lat');
    expect(latency.asked).toEqual(['entry:place', 'response:place', 'entry:cancel', 'response:cancel']);
  });
});
