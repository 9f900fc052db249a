import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiCredentials } from '../../../framework/exchange/rest/credentials.js';
import { ValidationError } from '../../../framework/model/errors.js';
import type { BalanceNotification, TransactionNotification } from '../../../framework/model/stream/balance-update.js';
import type { Resubscription } from '../../../framework/exchange/ws/session-event.js';
import { WalletSession } from '../../../framework/exchange/ws/wallet-session.js';
import { VirtualClock } from '../../../framework/time/clock.js';
import { until, WsTestServer } from '../../support/ws-test-server.js';

const TX = {
  id: 2_036_923, status: 'SUCCESS', type: 'DEPOSIT', subtype: 'BLOCKCHAIN',
  created_at: '2023-11-14T22:13:20.000Z', updated_at: '2023-11-14T22:14:00.000Z',
  native: { tx_id: 'e1a3', currency: 'USDT', amount: '25.000001', fee: '0' },
};

let server: WsTestServer;
let session: WalletSession;

beforeEach(async () => {
  server = await WsTestServer.start();
  server.handler = (message, client) => {
    switch (message.method) {
      case 'get_transactions':
        return server.reply(client, message.id, [TX]);
      case 'wallet_balances':
        return server.reply(client, message.id, [{ currency: 'USDT', available: '25.000001', reserved: '0' }]);
      case 'wallet_balance':
        return server.reply(client, message.id, { available: '1.5', reserved: '0.25' });
      default:
        return server.reply(client, message.id, true);
    }
  };
  session = WalletSession.create({
    url: server.url('/api/3/ws/wallet'),
    clock: new VirtualClock(99),
    credentials: ApiCredentials.from({ apiKey: 'k', secretKey: 's', scheme: 'hs256' }),
    pingIntervalMs: 0,
    backoff: { initialMs: 10, maxMs: 40, factor: 2 },
    random: () => 0.5,
  });
  await session.start();
});

afterEach(async () => {
  await session.close();
  await server.stop();
});

describe('WalletSession', () => {
  it('delivers typed transaction and wallet balance notifications', async () => {
    const transactions: TransactionNotification[] = [];
    const balances: BalanceNotification[] = [];
    session.transactions$.subscribe((t) => transactions.push(t));
    session.balances$.subscribe((b) => balances.push(b));
    await session.subscribeTransactions();
    await session.subscribeWalletBalances();
    const client = server.clients[0]!;
    server.send(client, { jsonrpc: '2.0', method: 'transaction_update', params: TX });
    server.send(client, { jsonrpc: '2.0', method: 'wallet_balances', params: [{ currency: 'USDT', available: '25.000001', reserved: '0' }] });
    await until(() => transactions.length === 1 && balances.length === 1);
    expect(transactions[0]!.transaction.id).toBe('2036923');
    expect(transactions[0]!.transaction.native?.amount.toFixed()).toBe('25.000001');
    expect(transactions[0]!.receivedAt).toBe(99);
    expect(balances[0]).toMatchObject({ account: 'wallet' });
  });

  it('parses history and balance replies and validates queries before sending', async () => {
    const [tx] = await session.getTransactions({ currencies: ['USDT'], limit: 10, sort: 'DESC' });
    expect(tx?.status).toBe('SUCCESS');
    expect(server.clients[0]!.received.at(-1)).toMatchObject({ method: 'get_transactions', params: { currencies: ['USDT'], limit: 10, sort: 'DESC' } });
    await expect(session.getTransactions({ limit: 5000 })).rejects.toBeInstanceOf(ValidationError);
    const [balance] = await session.walletBalances();
    expect(balance?.available.toFixed()).toBe('25.000001');
    const one = await session.walletBalance('BTC');
    expect(one).toMatchObject({ currency: 'BTC' });
    expect(one.reserved.toFixed()).toBe('0.25');
  });

  it('logs in again and restores both subscriptions after a drop', async () => {
    await session.subscribeTransactions();
    await session.subscribeWalletBalances();
    await session.unsubscribeTransactions();
    const restored: Resubscription[] = [];
    session.resubscribed$.subscribe((r) => restored.push(r));
    server.dropAll();
    await until(() => restored.length === 1);
    expect(server.clients[0]!.received.map((m) => m.method)).toEqual(['login', 'subscribe_wallet_balances']);
  });
});
