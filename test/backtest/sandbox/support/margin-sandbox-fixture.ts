import { parseSymbolInfo, type SymbolInfo } from '../../../../framework/model/resources/symbol.js';
import type { RestClient } from '../../../../framework/exchange/rest/rest-client.js';
import type { RestTransport } from '../../../../framework/exchange/rest/rest-transport.js';
import type { SandboxServer } from '../../../../backtest/sandbox/sandbox-server.js';
import { startSimulatedSandbox } from './futures-sandbox-fixture.js';
import { bookSnapshot, type PushedMarket } from './sandbox-fixture.js';

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
  return startSimulatedSandbox(MARGIN_SYMBOLS, bookSnapshot(), {}, { accounts: [{ id: 'main', spot: { USDT: '1000', BTC: '1' } }] });
}
