import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from '../../../backtest/report/csv.js';

/** A minimal RFC 4180 reader, to check that what is written reads back. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; }
    else if (c === '\r' && text[i + 1] === '\n') { row.push(field); rows.push(row); row = []; field = ''; i++; }
    else field += c;
  }
  return rows;
}

describe('csvField', () => {
  it('leaves plain text bare and quotes commas, quotes, line breaks and edge spaces', () => {
    expect(csvField('BTCUSDT')).toBe('BTCUSDT');
    expect(csvField('0.5')).toBe('0.5');
    expect(csvField('')).toBe('');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\r')).toBe('"cr\r"');
    expect(csvField(' padded')).toBe('" padded"');
  });
});

describe('toCsv', () => {
  it('ends every line with CRLF, header first', () => {
    expect(toCsv(['a', 'b'], [['1', 'x,y'], ['2', '']])).toBe('a,b\r\n1,"x,y"\r\n2,\r\n');
    expect(toCsv(['only'], [])).toBe('only\r\n');
  });

  it('reads back to the same fields whatever they contain', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', 'Z', '1', ',', '"', '\n', '\r', ' ', '.', '-') });
    fc.assert(fc.property(fc.array(fc.tuple(cell, cell, cell), { maxLength: 10 }), (rows) => {
      expect(parseCsv(toCsv(['x', 'y', 'z'], rows))).toEqual([['x', 'y', 'z'], ...rows]);
    }));
  });
});
