import { describe, expect, it } from 'vitest';
import { parseMarginAccountList } from '../../framework/model/resources/margin-account.js';
import type { BalanceNotification } from '../../framework/model/stream/balance-update.js';
import type { OrderReportNotification } from '../../framework/model/stream/order-report.js';
import { startFuturesSandbox } from '../backtest/sandbox/support/futures-sandbox-fixture.js';
import { codeOf, eventually, teardownAfterEach, tradingSessionOf } from '../backtest/sandbox/support/sandbox-fixture.js';

const teardown = teardownAfterEach();

describe('sandbox futures_* trading-stream methods, through the framework session', () => {
  it('places, replaces, cancels and fills futures orders with futures reports and balances apart from spot', async () => {
    const started = await startFuturesSandbox();
    const { server } = teardown.sandbox(started);
    await started.rest.futures.updateAccount('BTCUSDT_PERP', { margin_balance: '500' });
    const session = tradingSessionOf(server);
    teardown.add(() => session.close());
    const reports: OrderReportNotification[] = [];
    const balances: BalanceNotification[] = [];
    const subs = [session.orderReports$.subscribe((r) => reports.push(r)), session.balances$.subscribe((b) => balances.push(b))];
    teardown.add(() => subs.forEach((s) => s.unsubscribe()));
    await session.start(3000);
    await session.spot.newOrder({ client_order_id: 's1', symbol: 'BTCUSDT', side: 'buy', quantity: '1', price: '90' });
    await session.spot.subscribe();
    await session.futures.subscribe();
    await session.futures.balanceSubscribe();
    const futuresReports = () => reports.filter((r) => r.account === 'futures').flatMap((r) => r.reports);
    const futuresBalances = () => balances.filter((b) => b.account === 'futures');
    await eventually(() => reports.length === 2 && futuresBalances().length === 1);
    expect(reports.map((r) => [r.account, r.snapshot, r.reports.map((o) => o.client_order_id)])).toEqual([['spot', true, ['s1']], ['futures', true, []]]);
    expect(futuresBalances()[0]?.balances.map((b) => [b.currency, b.available.toFixed()])).toEqual([['USDT', '500']]);

    const placed = await session.futures.newOrder({ client_order_id: 'f1', symbol: 'BTCUSDT_PERP', side: 'buy', quantity: '1', price: '95' });
    expect([placed.client_order_id, placed.status]).toEqual(['f1', 'new']);
    const replaced = await session.futures.replaceOrder({ client_order_id: 'f1', new_client_order_id: 'f2', quantity: '1', price: '96' });
    expect([replaced.client_order_id, replaced.price?.toFixed()]).toEqual(['f2', '96']);
    expect((await session.futures.getOrders()).map((o) => o.client_order_id)).toEqual(['f2']);
    expect((await session.futures.cancelOrder('f2')).status).toBe('canceled');
    await eventually(() => futuresReports().some((r) => r.report_type === 'canceled'));
    expect(futuresReports().map((r) => [r.client_order_id, r.report_type])).toEqual([['f1', 'new'], ['f2', 'replaced'], ['f2', 'canceled']]);

    // A market buy of 1 fills at the ask 101: margin 101 at leverage 1, fee 0.0505.
    const filled = await session.futures.newOrder({ client_order_id: 'f3', symbol: 'BTCUSDT_PERP', side: 'buy', type: 'market', quantity: '1' });
    expect(filled.status).toBe('filled');
    await eventually(() => futuresReports().some((r) => r.report_type === 'trade'));
    const trade = futuresReports().find((r) => r.report_type === 'trade');
    expect([trade?.client_order_id, trade?.trade_quantity?.toFixed(), trade?.trade_price?.toFixed(), trade?.trade_fee?.toFixed()]).toEqual(['f3', '1', '101', '0.0505']);
    await eventually(() => futuresBalances().some((b) => b.balances.some((x) => x.reserved_margin?.toFixed() === '101')));
    const usdt = await session.futures.balance('USDT');
    expect([usdt.reserved.toFixed(), usdt.reserved_margin?.toFixed()]).toEqual(['101', '101']);
    expect((await session.futures.balances()).map((b) => b.currency)).toEqual(['USDT']);
    expect((await session.futures.fees()).map((f) => [f.symbol, f.take_rate.toFixed()])).toEqual([['BTCUSDT_PERP', '0.0005']]);
    // futures_get_accounts (document 002) answers the REST account shape.
    const accounts = await session.request('futures_get_accounts', undefined, (r) => parseMarginAccountList(r, 'result'));
    expect(accounts.map((a) => [a.symbol, a.positions?.map((p) => p.quantity.toFixed())])).toEqual([['BTCUSDT_PERP', ['1']]]);

    expect(await codeOf(session.futures.newOrder({ symbol: 'BTCUSDT', side: 'buy', quantity: '1', price: '90' }))).toBe(2001);
    expect(await codeOf(session.futures.cancelOrder('s1'))).toBe(20002);
    expect(await codeOf(session.futures.newOrder({ symbol: 'BTCUSDT_PERP', side: 'buy', quantity: '1', price: '90', reduce_only: true }))).toBe(20044);
    expect(await codeOf(session.futures.fee('BTCUSDT'))).toBe(2001);
    await session.futures.newOrder({ client_order_id: 'f4', symbol: 'BTCUSDT_PERP', side: 'sell', quantity: '1', price: '120', reduce_only: true });
    expect((await session.futures.cancelOrders()).map((o) => o.client_order_id)).toEqual(['f4']);
    expect((await session.spot.getOrders()).map((o) => o.client_order_id)).toEqual(['s1']);
    // No futures order ever reached the spot subscription.
    expect(reports.filter((r) => r.account === 'spot').flatMap((r) => r.reports).map((o) => o.symbol)).toEqual(['BTCUSDT']);
  });
});
