import { describe, expect, it } from 'vitest';
import { endOfUtcDay, expiryTime, ExpiryQueue } from '../../../backtest/venue/expiry.js';
import { isTriggered } from '../../../backtest/venue/triggers.js';
import { STATUS_TRANSITIONS } from '../../../backtest/venue/order-state.js';

describe('expiry', () => {
  it('Day ends at the next UTC midnight; GTD at expire_time; others never', () => {
    const t = Date.UTC(2024, 0, 31, 23, 59, 59, 999);
    expect(endOfUtcDay(t)).toBe(Date.UTC(2024, 1, 1));
    expect(endOfUtcDay(Date.UTC(2024, 1, 1))).toBe(Date.UTC(2024, 1, 2));
    expect(expiryTime('GTD', t, t + 5)).toBe(t + 5);
    expect(expiryTime('GTC', t, t + 5)).toBeUndefined();
  });

  it('pops due entries in (time, key) order', () => {
    const q = new ExpiryQueue();
    q.add({ time: 20, orderKey: 2, reason: 'expire-gtd' });
    q.add({ time: 10, orderKey: 9, reason: 'expire-gtd' });
    q.add({ time: 20, orderKey: 1, reason: 'expire-day' });
    expect(q.popDue(5)).toBeUndefined();
    expect([q.popDue(30)?.orderKey, q.popDue(30)?.orderKey, q.popDue(30)?.orderKey, q.popDue(30)]).toEqual([9, 1, 2, undefined]);
  });
});

describe('trigger convention and status table', () => {
  it('stops trigger in the direction of the side, take-profits against it, nothing before a trade', () => {
    expect(isTriggered('stopLimit', 'buy', 100, 100)).toBe(true);
    expect(isTriggered('stopLimit', 'buy', 100, 99)).toBe(false);
    expect(isTriggered('stopMarket', 'sell', 100, 100)).toBe(true);
    expect(isTriggered('takeProfitLimit', 'buy', 100, 101)).toBe(false);
    expect(isTriggered('takeProfitMarket', 'sell', 100, 101)).toBe(true);
    expect(isTriggered('stopLimit', 'buy', 100, Number.NaN)).toBe(false);
  });

  it('final statuses have no way out', () => {
    expect(STATUS_TRANSITIONS.filled).toEqual([]);
    expect(STATUS_TRANSITIONS.canceled).toEqual([]);
    expect(STATUS_TRANSITIONS.expired).toEqual([]);
    expect(STATUS_TRANSITIONS.none).toEqual(['new', 'suspended']);
  });
});
