import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ClientOrderIdGenerator, MAX_GENERATED_ID_LENGTH, utcDay } from '../../framework/execution/client-order-ids.js';
import { ValidationError } from '../../framework/model/errors.js';
import { VirtualClock } from '../../framework/time/clock.js';

const JAN5 = Date.UTC(2024, 0, 5, 12);

describe('ClientOrderIdGenerator', () => {
  it('prefix, UTC day and counter; unique within a day; the counter restarts the next day', () => {
    const clock = new VirtualClock(JAN5);
    const ids = new ClientOrderIdGenerator('mm1', clock);
    expect([ids.next(), ids.next()]).toEqual(['mm1_20240105_1', 'mm1_20240105_2']);
    clock.advanceTo(Date.UTC(2024, 0, 6, 0, 0, 0, 1));
    expect(ids.next()).toBe('mm1_20240106_1');
    expect(ids.state()).toEqual({ day: '20240106', counter: 1 });
  });

  it('restart-safe: resumes after the last counter of the same day, starts fresh on another day', () => {
    const clock = new VirtualClock(JAN5);
    expect(new ClientOrderIdGenerator('b', clock, { day: '20240105', counter: 35 }).next()).toBe('b_20240105_10');
    expect(new ClientOrderIdGenerator('b', clock, { day: '20240104', counter: 35 }).next()).toBe('b_20240105_1');
    expect(() => new ClientOrderIdGenerator('b', clock, { day: '20240105', counter: -1 })).toThrow(ValidationError);
  });

  it('refuses prefixes that are empty, too long or carry separators', () => {
    const clock = new VirtualClock(JAN5);
    for (const bad of ['', 'a_b', 'x'.repeat(13), 'a b']) expect(() => new ClientOrderIdGenerator(bad, clock)).toThrow(ValidationError);
  });

  it('parses and recognises its own ids only', () => {
    const ids = new ClientOrderIdGenerator('a', new VirtualClock(JAN5));
    const id = ids.next();
    expect(ids.parse(id)).toEqual({ prefix: 'a', day: '20240105', counter: 1 });
    expect(ids.owns('a1_20240105_1')).toBe(false);
    expect(ids.owns('external-id')).toBe(false);
  });

  it('property: ids never repeat across prefixes, days and many orders, and stay within the length limit', () => {
    fc.assert(fc.property(
      fc.array(fc.tuple(fc.constantFrom('a', 'a1', 'bot12345678x'), fc.integer({ min: 0, max: 3 * 86_400_000 })), { maxLength: 200 }),
      (steps) => {
        const clock = new VirtualClock(JAN5);
        const gens = new Map<string, ClientOrderIdGenerator>();
        const seen = new Set<string>();
        for (const [prefix, dt] of steps) {
          clock.advanceBy(dt);
          let gen = gens.get(prefix);
          if (!gen) gens.set(prefix, (gen = new ClientOrderIdGenerator(prefix, clock)));
          const id = gen.next();
          if (seen.has(id) || id.length > MAX_GENERATED_ID_LENGTH) return false;
          seen.add(id);
        }
        return true;
      },
    ));
  });

  it('utcDay is the UTC calendar day', () => {
    expect(utcDay(Date.UTC(2023, 11, 31, 23, 59, 59, 999))).toBe('20231231');
    expect(utcDay(Date.UTC(2024, 0, 1))).toBe('20240101');
  });
});

describe('ClientOrderIdGenerator day tracking', () => {
  it('property: with a clock moving back and forth across midnights, ids follow the latest day seen', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: -2 * 86_400_000, max: 2 * 86_400_000 }), { maxLength: 60 }), (moves) => {
      let now = JAN5;
      const ids = new ClientOrderIdGenerator('p', { now: () => now });
      // The rule spelled out: the day only moves forward, and the counter restarts when it does.
      let day = utcDay(JAN5);
      let counter = 0;
      for (const move of moves) {
        now += move;
        const today = utcDay(now);
        if (today > day) {
          day = today;
          counter = 0;
        }
        counter++;
        expect(ids.next()).toBe(`p_${day}_${counter.toString(36)}`);
      }
    }));
  });
});
