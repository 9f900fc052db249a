import { describe, expect, it } from 'vitest';
import type { BalanceNotification } from '../../framework/model/stream/balance-update.js';
import type { OrderReportNotification } from '../../framework/model/stream/order-report.js';
import { perpBook, startFuturesSandbox } from '../backtest/sandbox/support/futures-sandbox-fixture.js';
import { eventually, teardownAfterEach, tradingSessionOf } from '../backtest/sandbox/support/sandbox-fixture.js';

const teardown = teardownAfterEach();

describe('sandbox futures trading stream: a liquidation as a client sees it', () => {
  it('reports the forced close as a futures_order trade report, cancels the orders and updates the balance', async () => {
    const started = await startFuturesSandbox();
    const { server } = teardown.sandbox(started);
    const { rest, market } = started;
    await rest.futures.updateAccount('BTCUSDT_PERP', { margin_balance: '10', leverage: '20' });
    const session = tradingSessionOf(server);
    teardown.add(() => session.close());
    const reports: OrderReportNotification[] = [];
    const balances: BalanceNotification[] = [];
    const subs = [session.orderReports$.subscribe((r) => reports.push(r)), session.balances$.subscribe((b) => balances.push(b))];
    teardown.add(() => subs.forEach((s) => s.unsubscribe()));
    await session.start(3000);
    await session.futures.subscribe();
    await session.futures.balanceSubscribe();
    await eventually(() => reports.length === 1 && balances.length === 1);

    // Long 1 at 101 on 10 of margin at leverage 20, and a resting reduce-only take-profit.
    await session.futures.newOrder({ client_order_id: 'open', symbol: 'BTCUSDT_PERP', side: 'buy', type: 'market', quantity: '1' });
    await session.futures.newOrder({ client_order_id: 'tp', symbol: 'BTCUSDT_PERP', side: 'sell', quantity: '1', price: '120', reduce_only: true });
    const [position] = (await rest.futures.getAccounts())[0]?.positions ?? [];
    const before = reports.length;
    const balancesBefore = balances.length;
    // The mark falls to the mid 90: margin balance 10 - 0.0505 - 11 < 90 / (20 x 2): liquidated at 90.
    market.push(perpBook(2, ['89.0', '91.0']));
    const later = () => reports.slice(before).flatMap((r) => r.reports);
    await eventually(() => later().some((r) => r.report_type === 'trade'));
    const [canceled, closing] = later();
    expect([canceled?.client_order_id, canceled?.report_type, canceled?.status]).toEqual(['tp', 'canceled', 'canceled']);
    expect(closing).toMatchObject({
      client_order_id: `liquidation-${position?.id}`, symbol: 'BTCUSDT_PERP', side: 'sell', status: 'filled', type: 'market',
      time_in_force: 'IOC', reduce_only: true, report_type: 'trade', trade_taker: true, trade_position_id: position?.id,
    });
    expect([closing?.quantity.toFixed(), closing?.quantity_cumulative.toFixed(), closing?.trade_quantity?.toFixed(), closing?.trade_price?.toFixed(), closing?.trade_fee?.toFixed()])
      .toEqual(['1', '1', '1', '90', '0']);
    // The same execution in the trade history: ids agree.
    const [trade] = await rest.futures.getTradeHistory();
    expect([trade?.id, trade?.order_id, trade?.liquidation]).toEqual([closing?.trade_id, closing?.id, true]);
    // The balance after the close: the insurance fund covered the loss beyond the margin, nothing is held.
    await eventually(() => balances.slice(balancesBefore).some((b) => b.balances.some((x) => x.available.isZero() && x.reserved.isZero())));
    const last = balances[balances.length - 1]?.balances.find((b) => b.currency === 'USDT');
    expect([last?.available.toFixed(), last?.reserved.toFixed()]).toEqual(['0', '0']);
  });
});
