import { afterEach, describe, expect, it } from 'vitest';
import { RestClient } from '../../framework/exchange/rest/rest-client.js';
import { RestTransport } from '../../framework/exchange/rest/rest-transport.js';
import { RetryPolicy } from '../../framework/exchange/rest/retry-policy.js';
import { parseSymbolInfo } from '../../framework/model/resources/symbol.js';
import { SandboxServer } from '../../backtest/sandbox/sandbox-server.js';
import { simulatedVenueFactory } from '../../backtest/sandbox/simulated-venue-factory.js';
import { FUTURES_SYMBOLS, startFuturesSandbox } from '../backtest/sandbox/support/futures-sandbox-fixture.js';
import { codeOf, eventually, PushedMarket } from '../backtest/sandbox/support/sandbox-fixture.js';

let server: SandboxServer | undefined;
let transport: RestTransport | undefined;

afterEach(async () => {
  await transport?.close();
  await server?.close();
  server = transport = undefined;
});

const START = PushedMarket.START;
const iso = (ms: number) => new Date(ms).toISOString();
/** A cash-settled contract expiring a day after the start. */
const DATED = parseSymbolInfo({
  type: 'futures', contract_type: 'cash_settled', expiry: iso(START + 86_400_000), underlying: 'BTC', base_currency: null,
  quote_currency: 'USDT', quantity_increment: '0.001', tick_size: '0.1', take_rate: '0.0005', make_rate: '0.0002',
  fee_currency: 'USDT', margin_trading: true, max_initial_leverage: '10',
});

describe('sandbox public futures market data, through the framework client', () => {
  it('derives futures info, funding history and open interest candles from the venue when nothing is recorded', async () => {
    const started = await startFuturesSandbox({ futures: { defaultFundingRate: '0.0001', fundingIntervalMs: 60_000 } });
    ({ server, transport } = started);
    const { rest, market } = started;
    // The first funding time after the start: the next whole minute from UNIX epoch.
    const firstFunding = Math.ceil((START + 1) / 60_000) * 60_000;
    const info = await rest.marketData.getFuturesInfo('BTCUSDT_PERP');
    // Mark = the book's mid (99 + 101) / 2; no index is modeled, so index = mark; nobody holds a position.
    expect(info).toMatchObject({
      contract_type: 'perpetual', mark_price: '100', index_price: '100', funding_rate: '0.0001', indicative_funding_rate: '0.0001',
      open_interest: '0', next_funding_time: firstFunding,
    });
    expect(await rest.marketData.getFuturesInfos()).toEqual({ BTCUSDT_PERP: info });
    expect((await rest.marketData.getSymbols()).BTCUSDT_PERP).toMatchObject({ type: 'futures', contract_type: 'perpetual' });

    // A position of 1.5 opens and later closes: open interest 1.5, then 0.
    await rest.futures.updateAccount('BTCUSDT_PERP', { margin_balance: '500' });
    await rest.futures.createOrder({ symbol: 'BTCUSDT_PERP', side: 'buy', type: 'market', quantity: '1.5' });
    expect((await rest.marketData.getFuturesInfo('BTCUSDT_PERP')).open_interest).toBe('1.5');

    // Funding passes at `firstFunding`: 1.5 x mark 100 x 0.0001 = 0.015 paid.
    market.skip(firstFunding - START);
    market.push({ ch: 'trades', update: { BTCUSDT_PERP: [{ t: firstFunding + 2, i: 1, p: '100.0', q: '0.1', s: 'buy' }] } });
    await eventually(() => server!.framesServed === 2);
    const history = await rest.marketData.getFundingHistory();
    expect(history).toEqual({
      BTCUSDT_PERP: [{ timestamp: firstFunding, funding_rate: '0.0001', avg_premium_index: '0.0001', interest_rate: '0', next_funding_time: firstFunding + 60_000 }],
    });
    const clearing = await rest.futures.getClearingHistory();
    expect(clearing.map((c) => c.amount.toFixed())).toEqual(['-0.015']);
    await rest.futures.closePosition('BTCUSDT_PERP');

    const candles = await rest.marketData.getOpenInterestCandles({ extra: { symbols: 'BTCUSDT_PERP', period: 'M1', sort: 'ASC' } });
    const list = (candles as Record<string, readonly { timestamp?: number; values: Record<string, string> }[]>).BTCUSDT_PERP ?? [];
    const openedMinute = Math.floor((START + 1) / 60_000) * 60_000;
    expect(list.map((c) => [c.timestamp, c.values])).toEqual([
      [openedMinute, { open: '1.5', close: '1.5', min: '1.5', max: '1.5' }],
      [firstFunding, { open: '1.5', close: '0', min: '0', max: '1.5' }],
    ]);
  });

  it('serves recorded futures info as recorded, and its funding history from the moves of next_funding_time', async () => {
    const started = await startFuturesSandbox();
    ({ server, transport } = started);
    const { rest, market } = started;
    const next1 = START + 3_600_000;
    const body = (mark: string, next: number, oi: string) => ({
      BTCUSDT_PERP: {
        contract_type: 'perpetual', mark_price: mark, index_price: '100.2', funding_rate: '0.0002', open_interest: oi,
        next_funding_time: iso(next), indicative_funding_rate: '0.0003', premium_index: '0.0001', avg_premium_index: '0.00015',
        interest_rate: '0.00005', timestamp: iso(START),
      },
    });
    market.pushRest({ method: 'GET', path: '/api/3/public/futures/info?symbols=BTCUSDT_PERP', status: 200, body: body('100.5', next1, '1234.5') });
    await eventually(() => server!.framesServed === 2);
    const info = await rest.marketData.getFuturesInfo('BTCUSDT_PERP');
    expect(info).toMatchObject({
      contract_type: 'perpetual', mark_price: '100.5', index_price: '100.2', funding_rate: '0.0002', open_interest: '1234.5', next_funding_time: next1,
      avg_premium_index: '0.00015', interest_rate: '0.00005',
    });
    // `timestamp` is the request time: the market's time, its last public frame (the book at START + 1).
    expect(info.timestamp).toBe(START + 1);
    // The venue took the recorded mark: its position view values at 100.5.
    await rest.futures.updateAccount('BTCUSDT_PERP', { margin_balance: '500' });
    await rest.futures.createOrder({ symbol: 'BTCUSDT_PERP', side: 'buy', type: 'market', quantity: '1' });
    expect((await rest.futures.getAccount('BTCUSDT_PERP')).positions?.[0]?.pnl?.toFixed()).toBe('-0.5');

    market.skip(3_600_000);
    market.pushRest({ method: 'GET', path: '/api/3/public/futures/info', status: 200, body: body('101', next1 + 3_600_000, '1300') });
    market.pushRest({ method: 'GET', path: '/api/3/public/futures/info', status: 500, body: { error: { code: 500 } } });
    await eventually(() => server!.framesServed === 3);
    expect(await rest.marketData.getFundingHistory({ symbols: ['BTCUSDT_PERP'] })).toEqual({
      BTCUSDT_PERP: [{ timestamp: next1, funding_rate: '0.0002', avg_premium_index: '0.00015', interest_rate: '0.00005', next_funding_time: next1 + 3_600_000 }],
    });
    // The venue charged the recorded rate at the recorded time, at the mark of that moment (the old
    // one: time advances before the new answer's marks apply): 1 x 100.5 x 0.0002 = 0.0201.
    expect((await rest.futures.getClearingHistory()).map((c) => [c.amount.toFixed(), c.rate?.toFixed(), c.timestamp]))
      .toEqual([['-0.0201', '0.0002', BigInt(next1) * 1_000_000n]]);
    const candles = await rest.marketData.getOpenInterestCandles({ extra: { period: 'H1', sort: 'ASC' } });
    const list = (candles as Record<string, readonly { values: Record<string, string> }[]>).BTCUSDT_PERP ?? [];
    expect(list.map((c) => c.values)).toEqual([{ open: '1234.5', close: '1234.5', min: '1234.5', max: '1234.5' }, { open: '1234.5', close: '1300', min: '1234.5', max: '1300' }]);
  });

  it('derives a cash-settled contract\'s info and refuses what is not a futures contract', async () => {
    const market = new PushedMarket();
    server = await SandboxServer.start({
      venue: simulatedVenueFactory(START),
      market: { kind: 'frames', symbols: { ...FUTURES_SYMBOLS, BTCUSDT_DATED: DATED }, startTime: START, frames: () => market.frames() },
      speed: Infinity, accounts: [{ id: 'main', spot: { USDT: '1000' } }], seed: 'test-seed',
    });
    transport = new RestTransport({ baseUrl: server.baseUrl, retryPolicy: new RetryPolicy({ maxAttempts: 1 }) });
    const rest = new RestClient(transport);
    // No price yet: the contract is left out of the list, and asked alone it is 2001.
    expect(await rest.marketData.getFuturesInfos()).toEqual({});
    expect(await codeOf(rest.marketData.getFuturesInfo('BTCUSDT_DATED'))).toBe(2001);
    market.push({ ch: 'trades', update: { BTCUSDT_DATED: [{ t: START + 1, i: 1, p: '101.3', q: '0.5', s: 'sell' }] } });
    await eventually(() => server!.framesServed === 1);
    // Mark = the last trade (no book); the settlement estimate is the mark; no funding fields.
    const info = await rest.marketData.getFuturesInfo('BTCUSDT_DATED');
    expect(info).toMatchObject({ contract_type: 'cash_settled', mark_price: '101.3', index_price: '101.3', indicative_settlement_price: '101.3', expiry: START + 86_400_000, open_interest: '0' });
    expect(info.funding_rate).toBeUndefined();
    expect(info.next_funding_time).toBeUndefined();
    expect(await rest.marketData.getFundingHistory()).toEqual({ BTCUSDT_PERP: [] });
    expect(await codeOf(rest.marketData.getFuturesInfo('BTCUSDT'))).toBe(2001);
    expect(await codeOf(rest.marketData.getFuturesInfo('NOPE'))).toBe(2001);
    expect(await codeOf(rest.marketData.getFundingHistory({ symbols: ['BTCUSDT'] }))).toBe(2001);
    expect(await codeOf(rest.marketData.getOpenInterestCandles({ extra: { period: 'M2' } }))).toBe(10001);
  });
});
