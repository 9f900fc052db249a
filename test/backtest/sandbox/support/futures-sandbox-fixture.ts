import { parseSymbolInfo, type SymbolInfo } from '../../../../framework/model/resources/symbol.js';
import { ApiCredentials } from '../../../../framework/exchange/rest/credentials.js';
import { RestClient } from '../../../../framework/exchange/rest/rest-client.js';
import { RestTransport } from '../../../../framework/exchange/rest/rest-transport.js';
import { RetryPolicy } from '../../../../framework/exchange/rest/retry-policy.js';
import { SandboxServer } from '../../../../backtest/sandbox/sandbox-server.js';
import type { SandboxOptions } from '../../../../backtest/sandbox/sandbox-config.js';
import { simulatedVenueFactory } from '../../../../backtest/sandbox/simulated-venue-factory.js';
import type { SimulatedVenueOptions } from '../../../../backtest/venue/simulated-venue.js';
import { PushedMarket, SYMBOLS, eventually } from './sandbox-fixture.js';

/** BTCUSDT_PERP: perpetual, margin and fees in USDT, tick 0.1, lot 0.001, max leverage 20. */
export const PERP_INFO: SymbolInfo = parseSymbolInfo({
  type: 'futures', contract_type: 'perpetual', expiry: null, underlying: 'BTC', base_currency: null, quote_currency: 'USDT',
  quantity_increment: '0.001', tick_size: '0.1', take_rate: '0.0005', make_rate: '0.0002', fee_currency: 'USDT',
  margin_trading: true, max_initial_leverage: '20',
});

/** The spot BTCUSDT of the spot fixture and the BTCUSDT_PERP contract. */
export const FUTURES_SYMBOLS: Record<string, SymbolInfo> = { ...SYMBOLS, BTCUSDT_PERP: PERP_INFO };

/** A BTCUSDT_PERP book: by default asks 101 (2) and 102 (5), bids 99 (2) and 98 (5); else one level each side. */
export function perpBook(sequence = 1, bidAsk?: readonly [string, string]): Record<string, unknown> {
  const [a, b] = bidAsk === undefined
    ? [[['101.0', '2'], ['102.0', '5']], [['99.0', '2'], ['98.0', '5']]]
    : [[[bidAsk[1], '5']], [[bidAsk[0], '5']]];
  return { ch: 'orderbook/full', snapshot: { BTCUSDT_PERP: { t: PushedMarket.START, s: sequence, a, b } } };
}

/**
 * A sandbox over the real SimulatedVenue (with `venueOptions`) with spot and futures symbols, the
 * PERP book served, and a REST client of its first key.
 */
export async function startFuturesSandbox(
  venueOptions: SimulatedVenueOptions = {}, overrides: Partial<SandboxOptions> = {},
): Promise<{ server: SandboxServer; market: PushedMarket; rest: RestClient; transport: RestTransport }> {
  return startSimulatedSandbox(FUTURES_SYMBOLS, perpBook(), venueOptions, overrides);
}

/**
 * A sandbox over the real SimulatedVenue (with `venueOptions`) of `symbols`, account `main`
 * holding 1 000 USDT and 1 BTC on spot and 500 USDT in the wallet, `firstFrame` served, and a REST
 * client of its first key.
 */
export async function startSimulatedSandbox(
  symbols: Record<string, SymbolInfo>, firstFrame: Record<string, unknown>, venueOptions: SimulatedVenueOptions = {}, overrides: Partial<SandboxOptions> = {},
): Promise<{ server: SandboxServer; market: PushedMarket; rest: RestClient; transport: RestTransport }> {
  const market = new PushedMarket();
  const server = await SandboxServer.start({
    venue: simulatedVenueFactory(PushedMarket.START, venueOptions),
    market: { kind: 'frames', symbols, startTime: PushedMarket.START, frames: () => market.frames() },
    speed: Infinity,
    accounts: [{ id: 'main', spot: { USDT: '1000', BTC: '1' }, wallet: { USDT: '500' } }],
    seed: 'test-seed',
    ...overrides,
  });
  market.push(firstFrame);
  await eventually(() => server.framesServed === 1);
  const key = server.apiKeys[0]!;
  const transport = new RestTransport({
    baseUrl: server.baseUrl, credentials: ApiCredentials.from({ apiKey: key.apiKey, secretKey: key.secretKey, scheme: 'hs256' }),
    retryPolicy: new RetryPolicy({ maxAttempts: 1 }),
  });
  return { server, market, rest: new RestClient(transport), transport };
}
