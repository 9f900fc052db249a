import { describe, expect, it } from 'vitest';
import { ApiCredentials } from '../../framework/exchange/rest/credentials.js';
import { TradingSession } from '../../framework/exchange/ws/trading-session.js';
import { WalletSession } from '../../framework/exchange/ws/wallet-session.js';
import type { BalanceNotification, TransactionNotification } from '../../framework/model/stream/balance-update.js';
import { LiveClock } from '../../framework/time/clock.js';
import { startFuturesSandbox } from '../backtest/sandbox/support/futures-sandbox-fixture.js';
import { codeOf, eventually, teardownAfterEach } from '../backtest/sandbox/support/sandbox-fixture.js';

const teardown = teardownAfterEach();

describe('sandbox transfers between wallet, spot and futures, through the framework client', () => {
  it('moves funds wallet -> spot -> futures and back, keeping the total, with the spec\'s codes on refusals', async () => {
    // Many balance reads: the per-key budget of 20 a second would refuse some (429).
    const started = await startFuturesSandbox({}, { rateLimits: { publicPerSecond: 1000, tradingPerSecond: 1000, otherPerSecond: 1000 } });
    const { server } = teardown.sandbox(started);
    const { rest } = started;
    const usdt = async () => {
      const wallet = (await rest.wallet.getBalances()).find((b) => b.currency === 'USDT')?.available.toFixed() ?? '0';
      const spot = (await rest.spot.getBalance('USDT')).available.toFixed();
      const futures = (await rest.futures.getBalance('USDT')).available.toFixed();
      return { wallet, spot, futures };
    };
    // Start: wallet 500, spot 1000, futures 0.
    expect(await usdt()).toEqual({ wallet: '500', spot: '1000', futures: '0' });
    const { id } = await rest.wallet.transfer({ currency: 'USDT', amount: '200.5', source: 'wallet', destination: 'spot' });
    expect(typeof id).toBe('string');
    expect(await usdt()).toEqual({ wallet: '299.5', spot: '1200.5', futures: '0' });
    await rest.futures.updateAccount('BTCUSDT_PERP', { margin_balance: '700' });
    expect(await usdt()).toEqual({ wallet: '299.5', spot: '500.5', futures: '700' });
    await rest.futures.updateAccount('BTCUSDT_PERP', { margin_balance: '650.25' });
    expect(await usdt()).toEqual({ wallet: '299.5', spot: '550.25', futures: '650.25' });
    await rest.wallet.transfer({ currency: 'USDT', amount: '550.25', source: 'spot', destination: 'wallet' });
    expect(await usdt()).toEqual({ wallet: '849.75', spot: '0', futures: '650.25' });
    // 849.75 + 0 + 650.25 = the 1500 the account started with.

    // Refusals: more than the source holds (20001), an unknown currency (2002), more margin than spot has (20001).
    expect(await codeOf(rest.wallet.transfer({ currency: 'USDT', amount: '0.01', source: 'spot', destination: 'wallet' }))).toBe(20001);
    expect(await codeOf(rest.wallet.transfer({ currency: 'XYZ', amount: '1', source: 'wallet', destination: 'spot' }))).toBe(2002);
    expect(await codeOf(rest.futures.updateAccount('BTCUSDT_PERP', { margin_balance: '650.26' }))).toBe(20001);
    // The spec's transfer knows wallet and spot only: futures as a source is a validation error (10001).
    const raw = await fetch(`${server.baseUrl}/api/3/wallet/transfer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${server.apiKeys[0]!.apiKey}:${server.apiKeys[0]!.secretKey}`).toString('base64')}` },
      body: JSON.stringify({ currency: 'USDT', amount: '1', source: 'futures', destination: 'wallet' }),
    });
    expect([raw.status, ((await raw.json()) as { error: { code: number } }).error.code]).toEqual([400, 10001]);
    expect(await usdt()).toEqual({ wallet: '849.75', spot: '0', futures: '650.25' });
    // The two wallet transfers are the account's transactions, newest first.
    const transactions = await rest.wallet.getTransactions();
    expect(transactions.map((t) => [t.type, t.status, t.native?.amount?.toFixed()])).toEqual([['TRANSFER', 'SUCCESS', '550.25'], ['TRANSFER', 'SUCCESS', '200.5']]);
  });

  it('tells the streams: wallet balances and transactions, spot and futures balances, each with its new figure', async () => {
    const started = await startFuturesSandbox();
    const { server } = teardown.sandbox(started);
    const { rest } = started;
    const key = server.apiKeys[0]!;
    const credentials = ApiCredentials.from({ apiKey: key.apiKey, secretKey: key.secretKey, scheme: 'hs256' });
    const wallet = WalletSession.create({ url: `${server.wsBaseUrl}/api/3/ws/wallet`, clock: new LiveClock(), credentials });
    const trading = TradingSession.create({ url: `${server.wsBaseUrl}/api/3/ws/trading`, clock: new LiveClock(), credentials });
    teardown.add(() => wallet.close(), () => trading.close());
    const balances: BalanceNotification[] = [];
    const transactions: TransactionNotification[] = [];
    const subs = [wallet.balances$.subscribe((b) => balances.push(b)), trading.balances$.subscribe((b) => balances.push(b)), wallet.transactions$.subscribe((t) => transactions.push(t))];
    teardown.add(() => subs.forEach((s) => s.unsubscribe()));
    await wallet.start(3000);
    await trading.start(3000);
    await wallet.subscribeWalletBalances();
    await wallet.subscribeTransactions();
    await trading.spot.balanceSubscribe();
    await trading.futures.balanceSubscribe();
    const usdt = (account: string) => balances.filter((b) => b.account === account).flatMap((b) => b.balances).filter((b) => b.currency === 'USDT').map((b) => b.available.toFixed());
    // The futures snapshot is empty: the account never held futures margin yet.
    await eventually(() => usdt('wallet').length > 0 && usdt('spot').length > 0 && balances.some((b) => b.account === 'futures'));
    const seen = () => ({ wallet: usdt('wallet').at(-1), spot: usdt('spot').at(-1), futures: usdt('futures').at(-1) ?? '0' });
    expect(seen()).toEqual({ wallet: '500', spot: '1000', futures: '0' });

    await rest.wallet.transfer({ currency: 'USDT', amount: '120', source: 'wallet', destination: 'spot' });
    await eventually(() => seen().wallet === '380' && seen().spot === '1120' && transactions.length === 1);
    expect([transactions[0]?.transaction.type, transactions[0]?.transaction.status, transactions[0]?.transaction.native?.amount?.toFixed()]).toEqual(['TRANSFER', 'SUCCESS', '120']);
    await rest.futures.updateAccount('BTCUSDT_PERP', { margin_balance: '300' });
    await eventually(() => seen().spot === '820' && seen().futures === '300');
    await rest.futures.updateAccount('BTCUSDT_PERP', { margin_balance: '0' });
    await eventually(() => seen().spot === '1120' && seen().futures === '0');
    expect(seen()).toEqual({ wallet: '380', spot: '1120', futures: '0' });
  });
});
