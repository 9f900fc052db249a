import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatJsonLine, formatPrettyLine, renderValue } from '../../framework/log/log-line.js';

const T = '2026-03-04T05:06:07.089Z';

describe('formatPrettyLine', () => {
  it('prints time, padded level, message and key=value pairs, fields first', () => {
    const line = formatPrettyLine({ timestamp: T, level: 'info', message: 'quote', fields: { bid: '99.5', levels: 3, book: { d: 1 } }, extra: 'x y' });
    expect(line).toBe('05:06:07.089 INFO  quote bid=99.5 levels=3 book={"d":1} extra="x y"');
    expect(formatPrettyLine({ timestamp: T, level: 'debug', message: 'd' })).toBe('05:06:07.089 DEBUG d');
    expect(formatPrettyLine({ timestamp: T, level: 'warn', message: 'w', fields: [1, 2] })).toBe('05:06:07.089 WARN  w fields=[1,2]');
    expect(formatPrettyLine({ timestamp: T, level: 'info', message: 'two\nlines', fields: { 'odd key': 1 } })).toBe('05:06:07.089 INFO  "two\\nlines" "odd key"=1');
  });

  it('keeps every entry on one line, with no raw control character', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.dictionary(fc.string({ unit: 'binary' }), fc.oneof(fc.string({ unit: 'binary' }), fc.integer(), fc.constant(null))), (message, fields) => {
        // eslint-disable-next-line no-control-regex
        expect(formatPrettyLine({ timestamp: T, level: 'info', message, fields })).not.toMatch(/[\u0000-\u001f\u007f]/);
      }),
    );
  });

  it('colors the level only when asked', () => {
    expect(formatPrettyLine({ timestamp: T, level: 'error', message: 'e' }, true)).toBe('\x1b[2m05:06:07.089\x1b[0m \x1b[31mERROR\x1b[0m e');
  });
});

describe('renderValue', () => {
  it('quotes texts that would not split cleanly', () => {
    expect(['plain', '', 'a b', 'a=b', 'q"', null, undefined, false, 1.5].map(renderValue)).toEqual(['plain', '""', '"a b"', '"a=b"', '"q\\""', 'null', 'undefined', 'false', '1.5']);
    expect(renderValue({ name: 'TypeError', message: 'bad', stack: 'TypeError: bad\n  at x' })).toBe('"TypeError: bad"');
  });
});

describe('formatJsonLine', () => {
  it('puts timestamp, level and message first', () => {
    const line = formatJsonLine({ fields: { a: 1 }, message: 'm', level: 'info', timestamp: T } as never);
    expect(line).toBe(`{"timestamp":"${T}","level":"info","message":"m","fields":{"a":1}}`);
  });
});
