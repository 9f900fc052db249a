import { describe, expect, it } from 'vitest';
import { parseLatencySpec } from '../../framework/config/latency-spec.js';

describe('parseLatencySpec', () => {
  it('reads numbers, their text and entry/response text, fractions of a millisecond included', () => {
    expect(parseLatencySpec(0.25, 'l', '/cfg')).toEqual({ kind: 'constant', entryMs: 0.25, responseMs: 0.25 });
    expect(parseLatencySpec('3', 'l', '/cfg')).toEqual({ kind: 'constant', entryMs: 3, responseMs: 3 });
    expect(parseLatencySpec('0.2/0.35', 'l', '/cfg')).toEqual({ kind: 'constant', entryMs: 0.2, responseMs: 0.35 });
  });

  it('reads mappings: constant, jitter, a recorded file relative to the config', () => {
    expect(parseLatencySpec({ entryMs: 1 }, 'l', '/cfg')).toEqual({ kind: 'constant', entryMs: 1, responseMs: 1 });
    expect(parseLatencySpec({ entryMs: 1, responseMs: 2, jitterMs: 0.5 }, 'l', '/cfg')).toEqual({ kind: 'jitter', entryMs: 1, responseMs: 2, jitterMs: 0.5 });
    expect(parseLatencySpec({ file: 'lat.jsonl' }, 'l', '/cfg')).toEqual({ kind: 'recorded', file: '/cfg/lat.jsonl' });
    expect(parseLatencySpec('runs/bot.latency.jsonl', 'l', '/cfg')).toEqual({ kind: 'recorded', file: '/cfg/runs/bot.latency.jsonl' });
  });

  it('refuses what is not a latency, naming the field and the rule', () => {
    expect(() => parseLatencySpec(-1, 'backtest.latency', '/')).toThrow(/backtest\.latency.*must be a number of milliseconds >= 0/);
    expect(() => parseLatencySpec('fast', 'backtest.latency', '/')).toThrow(/backtest\.latency.*must be milliseconds/);
    expect(() => parseLatencySpec({ entryMs: 1, latency: 2 }, 'backtest.latency', '/')).toThrow(/backtest\.latency\.latency.*is not a latency key/);
    expect(() => parseLatencySpec({ file: 'a.jsonl', entryMs: 1 }, 'backtest.latency', '/')).toThrow(/\{ file: PATH \} alone/);
    expect(() => parseLatencySpec(Number.NaN, 'backtest.latency', '/')).toThrow(/>= 0/);
  });
});
