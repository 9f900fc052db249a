import { afterEach, describe, expect, it } from 'vitest';
import { ApiCredentials } from '../../../framework/exchange/rest/credentials.js';
import { RestClient } from '../../../framework/exchange/rest/rest-client.js';
import { RestTransport } from '../../../framework/exchange/rest/rest-transport.js';
import { RetryPolicy } from '../../../framework/exchange/rest/retry-policy.js';
import { Decimal } from '../../../framework/model/decimal.js';
import { SandboxServer } from '../../../backtest/sandbox/sandbox-server.js';
import { simulatedVenueFactory } from '../../../backtest/sandbox/simulated-venue-factory.js';
import { syntheticMarketSource } from '../../../backtest/sandbox/synthetic-source.js';
import { eventually } from './support/sandbox-fixture.js';

let server: SandboxServer | undefined;
let transport: RestTransport | undefined;

afterEach(async () => {
  await transport?.close();
  await server?.close();
  server = transport = undefined;
});

describe('the sandbox\'s synthetic market on a margin account', () => {
  it('lists its spot pairs with margin trading at leverage 10 and trades them on isolated margin', async () => {
    server = await SandboxServer.start({
      venue: simulatedVenueFactory(), market: syntheticMarketSource(7), speed: 1,
      accounts: [{ id: 'main', spot: { USDT: '100000' } }],
    });
    await eventually(() => server!.framesServed > 0);
    const key = server.apiKeys[0]!;
    transport = new RestTransport({
      baseUrl: server.baseUrl, credentials: ApiCredentials.from({ apiKey: key.apiKey, secretKey: key.secretKey, scheme: 'hs256' }),
      retryPolicy: new RetryPolicy({ maxAttempts: 1 }),
    });
    const rest = new RestClient(transport);

    const symbols = await rest.marketData.getSymbols();
    expect(['BTCUSDT', 'ETHUSDT'].map((s) => [s, symbols[s]?.margin_trading, symbols[s]?.max_initial_leverage?.toFixed()]))
      .toEqual([['BTCUSDT', true, '10'], ['ETHUSDT', true, '10']]);

    await rest.margin.updateAccount('BTCUSDT', { margin_balance: '1000' });
    const order = await rest.margin.createOrder({ symbol: 'BTCUSDT', side: 'buy', type: 'market', quantity: new Decimal('0.01') });
    expect(order.status).toBe('filled');
    const [position] = (await rest.margin.getAccount('BTCUSDT')).positions ?? [];
    expect(position?.quantity.toFixed()).toBe('0.01');
    // At leverage 1 the 1 000 USDT cover the ~600 USDT bought: no positive mark price reaches either
    // threshold, and the spec's Position still carries both prices.
    expect([position?.price_margin_call?.toFixed(), position?.price_liquidation?.toFixed()]).toEqual(['0', '0']);
  });
});
