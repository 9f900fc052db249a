import { afterEach, describe, expect, it } from 'vitest';
import type { RestTransport } from '../../framework/exchange/rest/rest-transport.js';
import type { SandboxServer } from '../../backtest/sandbox/sandbox-server.js';
import { perpBook, startFuturesSandbox } from '../backtest/sandbox/support/futures-sandbox-fixture.js';
import { PushedMarket, eventually } from '../backtest/sandbox/support/sandbox-fixture.js';

let server: SandboxServer | undefined;
let transport: RestTransport | undefined;

afterEach(async () => {
  await transport?.close();
  await server?.close();
  server = transport = undefined;
});

describe('sandbox futures: funding and liquidation as a client sees them', () => {
  it('serves the funding a position paid, as a clearing record the framework client reads', async () => {
    // Funding every 5 ms of venue time at 0.1 %: the market's frames (one a millisecond) bring it due.
    const started = await startFuturesSandbox({ futures: { fundingIntervalMs: 5, defaultFundingRate: '0.001' } });
    ({ server, transport } = started);
    const { rest, market } = started;
    await rest.futures.updateAccount('BTCUSDT_PERP', { margin_balance: '500' });
    await rest.futures.createOrder({ symbol: 'BTCUSDT_PERP', side: 'buy', type: 'market', quantity: '1' });
    const [position] = (await rest.futures.getAccounts())[0]?.positions ?? [];
    expect(await rest.futures.getClearingHistory()).toEqual([]);
    // Frames at START + 2 .. START + 7: one funding time (START + 5) passes while the position is open.
    for (let s = 2; s <= 7; s++) market.push(perpBook(s));
    await eventually(() => server!.framesServed === 7);
    const clearing = await rest.futures.getClearingHistory();
    // The long pays quantity 1 x mark 100 (the book's mid) x 0.001.
    expect(clearing.map((r) => [r.type, r.symbol, r.currency, r.amount.toFixed(), r.rate?.toFixed(), r.position_id])).toEqual([
      ['funding', 'BTCUSDT_PERP', 'USDT', '-0.1', '0.001', position?.id],
    ]);
    expect(clearing[0]?.timestamp).toBe(BigInt(PushedMarket.START + 5) * 1_000_000n);
    expect(await rest.futures.getClearingHistory({ currency: 'BTC' })).toEqual([]);
  });

  it('a liquidated position shows in the position and trade histories and the balances', async () => {
    const started = await startFuturesSandbox();
    ({ server, transport } = started);
    const { rest, market } = started;
    await rest.futures.updateAccount('BTCUSDT_PERP', { margin_balance: '10', leverage: '20' });
    // Long 1 at 101 on 10 of margin at leverage 20: maintenance at mark m is m / 40.
    await rest.futures.createOrder({ symbol: 'BTCUSDT_PERP', side: 'buy', type: 'market', quantity: '1' });
    const [opened] = await rest.futures.getPositionHistory();
    // The mark falls to the mid 90: margin balance 10 - 0.0505 - 11 < 90 / 40, so the venue closes the position at 90.
    market.push(perpBook(2, ['89.0', '91.0']));
    await eventually(() => server!.framesServed === 2);
    const [liquidated] = await rest.futures.getPositionHistory();
    expect([liquidated?.id, liquidated?.state, liquidated?.quantity.toFixed()]).toEqual([opened?.id, 'liquidated', '0']);
    expect(await rest.futures.getAccounts()).toEqual([]);
    const [closing] = await rest.futures.getTradeHistory();
    expect([closing?.side, closing?.quantity.toFixed(), closing?.price.toFixed(), closing?.liquidation]).toEqual(['sell', '1', '90', true]);
    const usdt = await rest.futures.getBalance('USDT');
    // The loss (11 + fee 0.0505) is beyond the 10 of margin: the insurance fund brings the cash back to 0.
    expect([usdt.available.toFixed(), usdt.reserved.toFixed(), usdt.reserved_margin?.toFixed()]).toEqual(['0', '0', '0']);
  });
});
