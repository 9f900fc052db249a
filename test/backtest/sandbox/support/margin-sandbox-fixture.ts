import { parseSymbolInfo, type SymbolInfo } from '../../../../framework/model/resources/symbol.js';
import { ApiCredentials } from '../../../../framework/exchange/rest/credentials.js';
import { RestClient } from '../../../../framework/exchange/rest/rest-client.js';
import { RestTransport } from '../../../../framework/exchange/rest/rest-transport.js';
import { RetryPolicy } from '../../../../framework/exchange/rest/retry-policy.js';
import { SandboxServer } from '../../../../backtest/sandbox/sandbox-server.js';
import { simulatedVenueFactory } from '../../../../backtest/sandbox/simulated-venue-factory.js';
import { PushedMarket, bookSnapshot, eventually } from './sandbox-fixture.js';

/** BTCUSDT with isolated margin trading (max leverage 10), and ETHUSDT without. Fees 0.1% / 0.05% in USDT. */
export const MARGIN_SYMBOLS: Record<string, SymbolInfo> = {
  BTCUSDT: parseSymbolInfo({
    type: 'spot', base_currency: 'BTC', quote_currency: 'USDT', tick_size: '0.01', quantity_increment: '0.0001',
    take_rate: '0.001', make_rate: '0.0005', fee_currency: 'USDT', margin_trading: true, max_initial_leverage: '10',
  }),
  ETHUSDT: parseSymbolInfo({
    type: 'spot', base_currency: 'ETH', quote_currency: 'USDT', tick_size: '0.01', quantity_increment: '0.0001',
    take_rate: '0.001', make_rate: '0.0005', fee_currency: 'USDT',
  }),
};

/**
 * A sandbox over the real SimulatedVenue with a margin-traded BTCUSDT (book: asks 101 x 1.5,
 * 102 x 2; bids 99 x 1, 98 x 3), account `main` holding 1 000 USDT and 1 BTC on spot, and a REST
 * client of its first key.
 */
export async function startMarginSandbox(): Promise<{ server: SandboxServer; market: PushedMarket; rest: RestClient; transport: RestTransport }> {
  const market = new PushedMarket();
  const server = await SandboxServer.start({
    venue: simulatedVenueFactory(PushedMarket.START),
    market: { kind: 'frames', symbols: MARGIN_SYMBOLS, startTime: PushedMarket.START, frames: () => market.frames() },
    speed: Infinity,
    accounts: [{ id: 'main', spot: { USDT: '1000', BTC: '1' } }],
    seed: 'test-seed',
  });
  market.push(bookSnapshot());
  await eventually(() => server.framesServed === 1);
  const key = server.apiKeys[0]!;
  const transport = new RestTransport({
    baseUrl: server.baseUrl, credentials: ApiCredentials.from({ apiKey: key.apiKey, secretKey: key.secretKey, scheme: 'hs256' }),
    retryPolicy: new RetryPolicy({ maxAttempts: 1 }),
  });
  return { server, market, rest: new RestClient(transport), transport };
}
