import { afterEach, describe, expect, it } from 'vitest';
import { ApiCredentials } from '../../framework/exchange/rest/credentials.js';
import { RestClient } from '../../framework/exchange/rest/rest-client.js';
import { RestTransport } from '../../framework/exchange/rest/rest-transport.js';
import { RetryPolicy } from '../../framework/exchange/rest/retry-policy.js';
import { simulatedVenueFactory } from '../../backtest/sandbox/simulated-venue-factory.js';
import type { SandboxServer } from '../../backtest/sandbox/sandbox-server.js';
import { bookSnapshot, codeOf, eventually, startSandbox, tradeFrame } from '../backtest/sandbox/support/sandbox-fixture.js';

let server: SandboxServer | undefined;
let transport: RestTransport | undefined;

afterEach(async () => {
  await transport?.close();
  await server?.close();
  server = transport = undefined;
});

describe('sandbox over the real SimulatedVenue', () => {
  it('places, lists, cancels and rejects with the exchange codes', async () => {
    let market;
    ({ server, market } = await startSandbox({ venue: simulatedVenueFactory() }));
    market.push(bookSnapshot());
    await eventually(() => server!.framesServed === 1);
    const key = server.apiKeys[0]!;
    transport = new RestTransport({
      baseUrl: server.baseUrl, credentials: ApiCredentials.from({ apiKey: key.apiKey, secretKey: key.secretKey, scheme: 'hs256' }),
      retryPolicy: new RetryPolicy({ maxAttempts: 1 }),
    });
    const rest = new RestClient(transport);
    const order = await rest.spot.createOrder({ client_order_id: 's1', symbol: 'BTCUSDT', side: 'buy', quantity: '1', price: '95' });
    expect(order.status).toBe('new');
    expect((await rest.spot.getActiveOrders()).map((o) => o.client_order_id)).toEqual(['s1']);
    expect(await codeOf(rest.spot.createOrder({ client_order_id: 's1', symbol: 'BTCUSDT', side: 'buy', quantity: '1', price: '95' }))).toBe(20008);
    expect(await codeOf(rest.spot.createOrder({ symbol: 'BTCUSDT', side: 'buy', quantity: '100', price: '95' }))).toBe(20001);
    expect(await codeOf(rest.spot.cancelOrder('none'))).toBe(20002);
    market.push(tradeFrame('94', '5', 9));
    await eventually(() => server!.framesServed === 2);
    const after = await rest.spot.getOrderHistory({ client_order_id: 's1' });
    expect(['filled', 'partiallyFilled', 'new']).toContain(after[0]?.status);
    await rest.spot.cancelOrders().catch(() => []);
  });
});
