import { describe, expect, it } from 'vitest';
import { RestClient } from '../../../framework/exchange/rest/rest-client.js';
import { RecordingExecutor } from './endpoints/recording-executor.js';
import * as wire from './endpoints/wire-fixtures.js';

describe('RestClient', () => {
  it('routes every section through the one executor it was given', async () => {
    const executor = new RecordingExecutor().answer(
      wire.ticker, [wire.tradingBalance], [wire.marginAccount], wire.futuresConfig, [wire.walletBalance], wire.subAccounts, [wire.provider],
    );
    const client = new RestClient(executor);
    await client.marketData.getTicker('ETHBTC');
    await client.spot.getBalances();
    await client.margin.getAccounts();
    await client.futures.getConfig();
    await client.wallet.getBalances();
    await client.subAccount.list();
    await client.buyCrypto.getProviders();
    expect(executor.requests.map((r) => `${r.method} ${r.path} ${r.scope} ${r.auth}`)).toEqual([
      'GET /public/ticker/ETHBTC public false',
      'GET /spot/balance other true',
      'GET /margin/account other true',
      'GET /futures/config other true',
      'GET /wallet/balance other true',
      'GET /sub-account other true',
      'GET /buy-crypto/provider other true',
    ]);
  });
});
