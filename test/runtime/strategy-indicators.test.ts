import { describe, expect, it } from 'vitest';
import { UnrepresentableValueError, ValidationError } from '../../framework/model/errors.js';
import { SILENT_LOGGER } from '../../framework/runtime/runtime-ports.js';
import { RuntimeState } from '../../framework/runtime/runtime-state.js';
import { RuntimeStrategyContext } from '../../framework/runtime/strategy-context.js';
import { indicatorsById, type IndicatorDeclaration } from '../../framework/runtime/strategy-indicators.js';
import { VirtualClock } from '../../framework/time/clock.js';

function context(indicators: readonly IndicatorDeclaration[] | undefined, recorded?: [string, string, number, number][]) {
  const clock = new VirtualClock(5_000);
  const ctx = new RuntimeStrategyContext('s', {}, clock, new RuntimeState(), {
    submit: () => {}, nextClientOrderId: () => 's-o1', setTimer: () => {}, clearTimer: () => {}, indicators,
    recordIndicator: recorded === undefined ? undefined : (id, symbol, time, value) => void recorded.push([id, symbol, time, value]),
  }, SILENT_LOGGER);
  return { ctx, clock };
}

describe('indicator declarations', () => {
  it('accepts well-formed declarations, by id', () => {
    const byId = indicatorsById([{ id: 'fast', pane: 'price', color: '#f9a825', label: 'fast SMA 5' }, { id: 'rsi.14', pane: 'separate' }]);
    expect([...byId.keys()]).toEqual(['fast', 'rsi.14']);
    expect(indicatorsById(undefined).size).toBe(0);
  });

  it.each([
    [[{ id: '', pane: 'price' }], 'indicators[0].id'],
    [[{ id: 'a b', pane: 'price' }], 'indicators[0].id'],
    [[{ id: 'a', pane: 'price' }, { id: 'a', pane: 'separate' }], 'indicators[1].id'],
    [[{ id: 'a', pane: 'below' }], 'indicators[0].pane'],
    [[{ id: 'a', pane: 'price', color: 'red' }], 'indicators[0].color'],
    [[{ id: 'a', pane: 'price', label: '' }], 'indicators[0].label'],
  ])('refuses %j naming %s', (declarations, field) => {
    expect(() => indicatorsById(declarations as IndicatorDeclaration[])).toThrow(ValidationError);
    try {
      indicatorsById(declarations as IndicatorDeclaration[]);
    } catch (error) {
      expect((error as ValidationError).field).toBe(field);
    }
  });

  it('refuses bad declarations when the context is built (the strategy never starts)', () => {
    expect(() => context([{ id: 'x', pane: 'price', color: '#12345' }])).toThrow(/indicators\[0\]\.color/);
  });
});

describe('ctx.recordIndicator', () => {
  it('hands declared values to the host at the clock time', () => {
    const recorded: [string, string, number, number][] = [];
    const { ctx, clock } = context([{ id: 'fast', pane: 'price' }], recorded);
    ctx.recordIndicator('fast', 'BTCUSDT', 101.25);
    clock.advanceTo(6_500);
    ctx.recordIndicator('fast', 'ETHUSDT', -0.5);
    expect(recorded).toEqual([['fast', 'BTCUSDT', 5_000, 101.25], ['fast', 'ETHUSDT', 6_500, -0.5]]);
  });

  it('refuses an undeclared id and a value that is not a finite number', () => {
    const recorded: [string, string, number, number][] = [];
    const { ctx } = context([{ id: 'fast', pane: 'price' }], recorded);
    expect(() => ctx.recordIndicator('slow', 'BTCUSDT', 1)).toThrow(ValidationError);
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, '1' as unknown as number]) {
      expect(() => ctx.recordIndicator('fast', 'BTCUSDT', bad)).toThrow(UnrepresentableValueError);
    }
    expect(recorded).toEqual([]);
  });

  it('checks values even where nobody collects them (live), so a strategy fails the same way everywhere', () => {
    const { ctx } = context([{ id: 'fast', pane: 'price' }]);
    expect(() => ctx.recordIndicator('fast', 'BTCUSDT', 3)).not.toThrow();
    expect(() => ctx.recordIndicator('fast', 'BTCUSDT', Number.NaN)).toThrow(UnrepresentableValueError);
  });
});
