import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { SandboxServer } from '../backtest/sandbox/sandbox-server.js';
import { simulatedVenueFactory } from '../backtest/sandbox/simulated-venue-factory.js';
import { syntheticMarketSource } from '../backtest/sandbox/synthetic-source.js';

/**
 * Conformance of the sandbox to the real API v3 as a widely used third-party client sees it: the
 * `hitbtc` class of ccxt (its API v3 paths and shapes are the spec's), pointed at the sandbox over
 * loopback, runs its unified REST calls one by one; a table tells each call's outcome and, for a
 * failure, the HTTP status and the error body. ccxt is not a dependency of the project: it is
 * installed into CCXT_DIR (default a folder under the system temp folder) when absent; with no
 * registry at hand the bench says "skipped" and succeeds.
 */
const CCXT_DIR = process.env.CCXT_DIR ?? path.join(tmpdir(), 'tradeloop-ccxt-client');
const CCXT_VERSION = process.env.CCXT_VERSION ?? '4.5';
/** CCXT_VERBOSE=1 prints each call's unified result too. */
const VERBOSE = process.env.CCXT_VERBOSE === '1';

/** The few members of a ccxt exchange the bench uses (ccxt's own typings are not installed). */
interface CcxtExchange {
  urls: { api: Record<string, string> };
  markets: Record<string, { id: string; type: string; precision: { price?: number; amount?: number } }>;
  handleErrors: (...args: unknown[]) => unknown;
  [method: string]: unknown;
}
type CcxtModule = { hitbtc: new (config: Record<string, unknown>) => CcxtExchange; version: string };

interface Row { call: string; result: 'pass' | 'FAIL'; detail: string }

async function loadCcxt(): Promise<CcxtModule | undefined> {
  const entry = path.join(CCXT_DIR, 'node_modules', 'ccxt', 'package.json');
  if (!existsSync(entry)) {
    console.log(`installing ccxt@${CCXT_VERSION} into ${CCXT_DIR}`);
    try {
      await promisify(execFile)('npm', ['install', '--prefix', CCXT_DIR, `ccxt@${CCXT_VERSION}`, '--no-audit', '--no-fund', '--ignore-scripts'], { timeout: 300_000 });
    } catch (error) {
      console.log(`skipped: ccxt could not be installed (${(error as Error).message.split('\n')[0]})`);
      return undefined;
    }
  }
  return createRequire(entry)('ccxt') as CcxtModule;
}

/** What the server answered last: ccxt's errors carry the body but not the status. */
interface LastResponse { status?: number; body?: string }

const KEYED_INFO = 'not in the spec: ccxt reads /public/futures/info/{symbol} as one Futures info, document 000 answers it keyed by the contract code (fetchFundingRates and fetchOpenInterests read the keyed list and pass)';
/** Why a call is known to fail, when the sandbox follows the spec there. */
const KNOWN_FAILURES: Readonly<Record<string, string>> = {
  'fetchBalance (margin)': 'client-side: ccxt has no margin balance type (the spec has no margin balance path: margin funds are the isolated accounts)',
  fetchFundingRate: KEYED_INFO,
  fetchOpenInterest: KEYED_INFO,
  fetchOpenInterestHistory: 'client-side: ccxt does not implement it (the spec shows neither the parameters nor the response of /public/futures/candles/open_interest)',
  fetchMarkOHLCV: 'not in the spec: /public/futures/candles/mark_price/{symbol}',
  fetchIndexOHLCV: 'not in the spec: /public/futures/candles/index_price/{symbol}',
};

/** A ccxt result read loosely: the checks below look at a few unified fields. */
type Out = Record<string, unknown> & { [index: number]: unknown; length?: number };
/** A check of a call's result: undefined when right, else what is wrong. */
type Check = (out: Out) => string | undefined;
/** A call the spec's exchange refuses: it passes when the server answers this error code. */
interface Refusal { readonly refusedWith: number }

/**
 * Runs every call in order; a call fails when it throws (with the server's status and body when
 * the server answered, else "client-side": ccxt refused before any request) or when its unified
 * result does not hold what the call should have produced.
 */
async function runCalls(exchange: CcxtExchange, last: LastResponse): Promise<Row[]> {
  const rows: Row[] = [];
  const call = async (name: string, check: Check | Refusal | undefined, method: string, ...args: unknown[]): Promise<Out | undefined> => {
    const refusal = check !== undefined && 'refusedWith' in check ? check.refusedWith : undefined;
    Object.assign(last, { status: undefined, body: undefined });
    try {
      const fn = exchange[method] as (...a: unknown[]) => Promise<Out>;
      const out = await fn.apply(exchange, args);
      const wrong = refusal !== undefined ? `answered, expected error ${refusal}` : typeof check === 'function' ? check(out) : undefined;
      if (VERBOSE) console.log(name, JSON.stringify(out).slice(0, 1500));
      rows.push(wrong === undefined ? { call: name, result: 'pass', detail: summary(out) } : { call: name, result: 'FAIL', detail: `wrong result: ${wrong}` });
      return out;
    } catch (error) {
      const e = error as Error;
      if (refusal !== undefined && last.body?.includes(`"code":${refusal}`) === true) {
        rows.push({ call: name, result: 'pass', detail: `refused as expected: HTTP ${last.status} ${last.body.slice(0, 120)}` });
        return undefined;
      }
      const http = last.status !== undefined && last.status >= 400 ? `HTTP ${last.status} ${last.body?.slice(0, 160) ?? ''}` : '';
      rows.push({ call: name, result: 'FAIL', detail: `${e.constructor.name}: ${http || `client-side: ${e.message.slice(0, 160)}`}` });
      return undefined;
    }
  };
  const price = (symbol: string, factor: number, book: Out | undefined): number => {
    const bids = book?.['bids'] as number[][] | undefined;
    const tick = exchange.markets[symbol]?.precision.price ?? 0.01;
    return Math.round(((bids?.[0]?.[0] ?? 1000) * factor) / tick) * tick;
  };
  const is = (field: string, want: unknown): Check => (out) => (out[field] === want ? undefined : `${field} ${String(out[field])}, expected ${String(want)}`);
  const nonEmpty: Check = (out) => ((out.length ?? 0) > 0 ? undefined : 'empty list');
  const all = (...checks: Check[]): Check => (out) => checks.map((c) => c(out)).find((w) => w !== undefined);
  const quoted: Check = (out) => {
    const [bid, ask] = [out['bid'], out['ask']] as [number | undefined, number | undefined];
    return bid !== undefined && ask !== undefined && bid < ask ? undefined : `bid ${bid} ask ${ask}`;
  };
  const booked: Check = (out) => {
    const [bids, asks] = [out['bids'], out['asks']] as [number[][], number[][]];
    return (bids[0]?.[0] ?? Infinity) < (asks[0]?.[0] ?? 0) ? undefined : 'no bid below the best ask';
  };
  const holds = (account: string, amount: number): Check => (out) => {
    const total = (out['total'] as Record<string, number> | undefined)?.[account];
    return total === amount ? undefined : `total ${account} ${total}, expected ${amount}`;
  };

  const spot = 'BTC/USDT';
  const perp = 'BTC/USDT:USDT';
  await call('fetchMarkets', (out) => (out.length === 4 ? undefined : `${out.length} markets, expected 4`), 'fetchMarkets');
  await call('loadMarkets', (out) => (out[perp] !== undefined && out[spot] !== undefined ? undefined : 'BTC/USDT or BTC/USDT:USDT missing'), 'loadMarkets');
  await call('fetchCurrencies', (out) => (out['USDT'] !== undefined ? undefined : 'no USDT'), 'fetchCurrencies');
  await call('fetchTicker (spot)', quoted, 'fetchTicker', spot);
  await call('fetchTickers', (out) => (Object.keys(out).length >= 2 ? undefined : 'fewer than 2 tickers'), 'fetchTickers');
  await call('fetchTicker (swap)', quoted, 'fetchTicker', perp);
  const book = await call('fetchOrderBook', booked, 'fetchOrderBook', spot);
  await call('fetchOrderBooks', (out) => (Object.keys(out).length === 2 ? undefined : 'not 2 books'), 'fetchOrderBooks', [spot, 'ETH/USDT']);
  await call('fetchTrades', nonEmpty, 'fetchTrades', spot);
  const since = Date.now() - 60_000;
  await call('fetchTrades (since, limit 3)', (out) => (out.length === 3 ? undefined : `${out.length} trades, expected 3`), 'fetchTrades', spot, since, 3);
  await call('fetchOrderBook (limit 5)', (out) => ((out['bids'] as unknown[]).length === 5 ? undefined : 'not 5 bids'), 'fetchOrderBook', spot, 5);
  await call('fetchOHLCV', nonEmpty, 'fetchOHLCV', spot, '1m');
  await call('fetchOHLCV (since, limit)', nonEmpty, 'fetchOHLCV', spot, '1m', since, 5);
  await call('fetchBalance (spot)', holds('USDT', 100000), 'fetchBalance');
  await call('fetchBalance (funding)', holds('USDT', 10000), 'fetchBalance', { type: 'funding' });
  await call('fetchBalance (margin)', undefined, 'fetchBalance', { type: 'margin' });
  await call('fetchBalance (swap)', holds('USDT', 5000), 'fetchBalance', { type: 'swap' });
  await call('fetchTradingFee', (out) => (typeof out['taker'] === 'number' ? undefined : 'no taker rate'), 'fetchTradingFee', spot);
  await call('fetchTradingFees', (out) => (out[spot] !== undefined ? undefined : 'no BTC/USDT'), 'fetchTradingFees');
  await call('fetchDepositWithdrawFees', undefined, 'fetchDepositWithdrawFees');

  // Spot orders: a limit far below the market rests; a small market buy fills.
  const resting = await call('createOrder (spot limit)', is('status', 'open'), 'createOrder', spot, 'limit', 'buy', 0.01, price(spot, 0.9, book));
  const id = (resting?.['id'] as string | undefined) ?? 'none';
  await call('fetchOrder', all(is('id', id), is('status', 'open')), 'fetchOrder', id, spot);
  await call('fetchOpenOrder', is('id', id), 'fetchOpenOrder', id, spot);
  await call('fetchOpenOrders', (out) => (out.length === 1 ? undefined : `${out.length} open orders, expected 1`), 'fetchOpenOrders', spot);
  const edited = await call('editOrder', all(is('amount', 0.02), is('status', 'open')), 'editOrder', id, spot, 'limit', 'buy', 0.02, price(spot, 0.89, book));
  await call('cancelOrder', is('status', 'canceled'), 'cancelOrder', (edited?.['id'] as string | undefined) ?? id, spot);
  const filled = await call('createOrder (spot market)', all(is('status', 'closed'), is('filled', 0.01)), 'createOrder', spot, 'market', 'buy', 0.01);
  await call('fetchOrderTrades', undefined, 'fetchOrderTrades', (filled?.['id'] as string | undefined) ?? 'none', spot);
  await call('createOrder (spot limit, post-only)', is('status', 'open'), 'createOrder', spot, 'limit', 'sell', 0.01, price(spot, 1.1, book), { postOnly: true });
  await call('cancelAllOrders (spot)', (out) => (out.length === 1 ? undefined : `${out.length} canceled, expected 1`), 'cancelAllOrders', spot);
  await call('createOrder (spot stop-limit)', is('status', 'open'), 'createOrder', spot, 'limit', 'buy', 0.01, price(spot, 1.2, book), { triggerPrice: price(spot, 1.19, book) });
  await call('createOrder (spot limit IOC)', is('status', 'failed'), 'createOrder', spot, 'limit', 'buy', 0.01, price(spot, 0.9, book), { timeInForce: 'IOC' });
  await call('cancelAllOrders (spot, again)', undefined, 'cancelAllOrders', spot);
  // The spec's refusals, as ccxt maps them to its error classes.
  await call('cancelOrder (unknown id)', { refusedWith: 20002 }, 'cancelOrder', 'no-such-order', spot);
  // ccxt reads an order from the order history, which has no entry for an unknown id: no order.
  await call('fetchOrder (unknown id)', (out) => (out['id'] === undefined ? undefined : 'an order'), 'fetchOrder', 'no-such-order', spot);
  await call('createOrder (more than the balance)', { refusedWith: 20001 }, 'createOrder', spot, 'limit', 'buy', 100, price(spot, 0.9, book));
  await call('fetchClosedOrders', nonEmpty, 'fetchClosedOrders', spot);
  await call('fetchClosedOrders (since)', nonEmpty, 'fetchClosedOrders', spot, since);
  await call('fetchMyTrades', nonEmpty, 'fetchMyTrades', spot);
  await call('fetchMyTrades (since)', nonEmpty, 'fetchMyTrades', spot, since);

  // Margin (isolated): the synthetic pairs have margin trading; the account is created by the PUT
  // that sets its margin balance (at leverage 1 it must hold the resting limit and the market buy).
  await call('fetchMarginModes', undefined, 'fetchMarginModes', [perp]);
  await call('addMargin (margin account)', is('amount', 2000), 'addMargin', spot, 2000, { marginMode: 'isolated' });
  await call('fetchPosition (margin)', is('symbol', spot), 'fetchPosition', spot, { marginMode: 'isolated' });
  await call('createOrder (margin limit)', is('status', 'open'), 'createOrder', spot, 'limit', 'buy', 0.01, price(spot, 0.9, book), { marginMode: 'isolated' });
  await call('createOrder (margin market)', all(is('status', 'closed'), is('filled', 0.01)), 'createOrder', spot, 'market', 'buy', 0.01, undefined, { marginMode: 'isolated' });
  await call('fetchOpenOrders (margin)', (out) => (out.length === 1 ? undefined : `${out.length} open orders, expected 1`), 'fetchOpenOrders', spot, undefined, undefined, { marginMode: 'isolated' });
  await call('cancelAllOrders (margin)', (out) => (out.length === 1 ? undefined : `${out.length} canceled, expected 1`), 'cancelAllOrders', spot, { marginMode: 'isolated' });
  await call('fetchPosition (margin, open)', all(is('contracts', 0.01), is('liquidationPrice', 0)), 'fetchPosition', spot, { marginMode: 'isolated' });

  // Futures (swap): the isolated account is created by the PUT that sets its margin balance.
  const perpBook = await call('fetchOrderBook (swap)', booked, 'fetchOrderBook', perp);
  await call('setLeverage', undefined, 'setLeverage', 5, perp, { margin_balance: '1000' });
  await call('fetchLeverage', is('longLeverage', 5), 'fetchLeverage', perp);
  await call('addMargin', undefined, 'addMargin', perp, 1200, { leverage: '5' });
  const swapLimit = await call('createOrder (swap limit)', is('status', 'open'), 'createOrder', perp, 'limit', 'buy', 0.01, price(perp, 0.9, perpBook));
  await call('editOrder (swap)', is('amount', 0.02), 'editOrder', (swapLimit?.['id'] as string | undefined) ?? 'none', perp, 'limit', 'buy', 0.02, price(perp, 0.89, perpBook));
  await call('fetchOpenOrders (swap)', (out) => (out.length === 1 ? undefined : `${out.length} open orders, expected 1`), 'fetchOpenOrders', perp);
  await call('cancelAllOrders (swap)', (out) => (out.length === 1 ? undefined : `${out.length} canceled, expected 1`), 'cancelAllOrders', perp);
  await call('createOrder (swap market)', all(is('status', 'closed'), is('filled', 0.01)), 'createOrder', perp, 'market', 'buy', 0.01);
  await call('fetchPositions', (out) => ((out[0] as Out | undefined)?.['contracts'] === 0.01 ? undefined : 'no 0.01 position'), 'fetchPositions', [perp]);
  // 1 200 USDT of margin cover the 600 USDT long: no positive mark liquidates it, the spec's 0.
  await call('fetchPosition', all(is('contracts', 0.01), is('liquidationPrice', 0)), 'fetchPosition', perp, { type: 'swap' });
  await call('fetchClosedOrders (swap)', nonEmpty, 'fetchClosedOrders', perp);
  await call('fetchMyTrades (swap)', nonEmpty, 'fetchMyTrades', perp);
  await call('closePosition', undefined, 'closePosition', perp, undefined, { marginMode: 'isolated' });
  await call('reduceMargin (to 0: closes the account)', undefined, 'reduceMargin', perp, 0, { leverage: '5' });
  await call('fetchFundingRate', (out) => (typeof out['fundingRate'] === 'number' ? undefined : 'no funding rate'), 'fetchFundingRate', perp);
  await call('fetchFundingRates', (out) => (out[perp] !== undefined ? undefined : 'no BTC/USDT:USDT'), 'fetchFundingRates', [perp]);
  await call('fetchFundingRateHistory', undefined, 'fetchFundingRateHistory', perp);
  await call('fetchOpenInterest', (out) => (typeof out['openInterestValue'] === 'number' ? undefined : 'no open interest'), 'fetchOpenInterest', perp);
  await call('fetchOpenInterests', (out) => (out[perp] !== undefined ? undefined : 'no BTC/USDT:USDT'), 'fetchOpenInterests', [perp]);
  await call('fetchOpenInterestHistory', undefined, 'fetchOpenInterestHistory', perp);
  await call('fetchMarkOHLCV', undefined, 'fetchMarkOHLCV', perp, '1m');
  await call('fetchIndexOHLCV', undefined, 'fetchIndexOHLCV', perp, '1m');

  // Wallet.
  await call('transfer (spot -> funding)', undefined, 'transfer', 'USDT', 1, 'spot', 'funding');
  await call('transfer (funding -> spot)', undefined, 'transfer', 'USDT', 1, 'funding', 'spot');
  // The sandbox's currencies take no deposits or withdrawals (payin/payout_enabled false).
  await call('fetchDepositAddress', (out) => (out['address'] === undefined ? undefined : 'an address'), 'fetchDepositAddress', 'USDT');
  await call('createDepositAddress', { refusedWith: 600 }, 'createDepositAddress', 'USDT');
  await call('fetchDeposits', (out) => (out.length === 0 ? undefined : `${out.length} deposits, expected none`), 'fetchDeposits', 'USDT');
  await call('fetchWithdrawals', (out) => (out.length === 0 ? undefined : `${out.length} withdrawals, expected none`), 'fetchWithdrawals', 'USDT');
  await call('fetchDepositsWithdrawals', (out) => (out.length === 0 ? undefined : `${out.length}, expected none`), 'fetchDepositsWithdrawals');
  await call('withdraw', { refusedWith: 600 }, 'withdraw', 'USDT', 1, '0x0000000000000000000000000000000000000001');
  return rows;
}

/** The table, left-aligned: the failure details are long text. */
function printRows(title: string, rows: readonly Row[]): void {
  const width = Math.max(...rows.map((r) => r.call.length));
  console.log(`\n${title}`);
  for (const r of rows) console.log(`${r.call.padEnd(width)}  ${r.result.padEnd(4)}  ${r.detail}`);
}

function summary(out: unknown): string {
  if (Array.isArray(out)) return `${out.length} items`;
  if (out !== null && typeof out === 'object') return `${Object.keys(out).length} keys`;
  return String(out);
}

export async function run(): Promise<void> {
  const ccxt = await loadCcxt();
  if (ccxt === undefined) return;
  const server = await SandboxServer.start({
    venue: simulatedVenueFactory(), market: syntheticMarketSource(42), speed: 1,
    accounts: [{ id: 'main', spot: { USDT: '100000', BTC: '2', ETH: '10' }, wallet: { USDT: '10000' }, futures: { USDT: '5000' } }],
    // ccxt paces itself to the documented budgets; the bench does not measure them.
    rateLimits: { publicPerSecond: 1000, tradingPerSecond: 1000, otherPerSecond: 1000 },
  });
  try {
    const key = server.apiKeys[0]!;
    const exchange = new ccxt.hitbtc({ apiKey: key.apiKey, secret: key.secretKey, enableRateLimit: true, timeout: 10_000 });
    exchange.urls.api = { public: `${server.baseUrl}/api/3`, private: `${server.baseUrl}/api/3` };
    const last: LastResponse = {};
    const handleErrors = exchange.handleErrors.bind(exchange);
    exchange.handleErrors = (...args: unknown[]) => {
      last.status = args[0] as number;
      last.body = args[5] as string;
      return handleErrors(...args);
    };
    // Let the replay serve a few seconds of market first (books, trades, candles).
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const rows = await runCalls(exchange, last);
    printRows(`ccxt ${ccxt.version} hitbtc against the sandbox`, rows);
    const passed = rows.filter((r) => r.result === 'pass').length;
    console.log(`${passed} of ${rows.length} calls pass`);
    const failed = rows.filter((r) => r.result === 'FAIL');
    if (failed.length > 0) console.log('\nwhy they fail:');
    for (const r of failed) console.log(`  ${r.call}: ${KNOWN_FAILURES[r.call] ?? 'NEW: not a known failure'}`);
  } finally {
    await server.close();
  }
}
