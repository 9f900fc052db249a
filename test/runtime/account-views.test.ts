import { describe, expect, it } from 'vitest';
import { AccountState } from '../../framework/execution/account-state.js';
import { dec } from '../../framework/model/decimal.js';
import { Instrument } from '../../framework/model/instrument.js';
import { accountTotals } from '../../framework/runtime/account-views.js';
import { book } from '../risk/risk-fixtures.js';
import { PERP_INFO } from '../backtest/sandbox/support/futures-sandbox-fixture.js';

const PERP = new Instrument('BTCUSDT_PERP', PERP_INFO);

function futuresAccount(quantity: string) {
  const account = new AccountState();
  account.setBalances([{ currency: 'USDT', available: dec('380'), reserved: dec('111'), reserved_margin: dec('101') }]);
  account.setMarginAccounts([{
    symbol: PERP.symbol, type: 'isolated', leverage: dec('1'), created_at: 1, updated_at: 2,
    currencies: [{ code: 'USDT', margin_balance: dec('491'), reserved_orders: dec('10'), reserved_positions: dec('101') }],
    positions: [{ id: '1', symbol: PERP.symbol, quantity: dec(quantity), price_entry: dec('101'), pnl: dec('-7'), created_at: 1, updated_at: 2 }],
  }]);
  return account;
}

describe('accountTotals (what equity is valued on)', () => {
  it('counts the margin held for positions (in reserved) and values a futures position at the mid now', () => {
    const mid = book(PERP, [['106.0', '1']], [['104.0', '1']]); // mid 105
    // 380 + 111, with the exchange's reported loss of 7 (already off `available`) added back, and a
    // long of 1 from 101 at 105: +4, a short of 1: -4.
    expect([...accountTotals(futuresAccount('1'), [PERP], () => mid)].map(([c, v]) => [c, v.toFixed()])).toEqual([['USDT', '502']]);
    expect([...accountTotals(futuresAccount('-1'), [PERP], () => mid)].map(([c, v]) => [c, v.toFixed()])).toEqual([['USDT', '494']]);
  });

  it('takes the exchange\'s unrealized PnL while the book has no mid (its loss is already in the balances)', () => {
    expect([...accountTotals(futuresAccount('1'), [PERP], () => undefined)].map(([c, v]) => [c, v.toFixed()])).toEqual([['USDT', '491']]);
  });
});
