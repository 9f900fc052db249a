import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FILL_COLUMNS, fillCells } from '../../../backtest/report/report-files.js';
import { toCsv } from '../../../backtest/report/csv.js';
import { StreamedRowsWriter } from '../../../backtest/report/streamed-rows-writer.js';
import { dec } from '../../../framework/model/decimal.js';
import { fill } from './result-fixture.js';

describe('StreamedRowsWriter files', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradeloop-streamed-rows-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the bytes of the whole-result CSV: characters beyond ASCII, quoted cells, lines longer than its buffer', async () => {
    const fills = [
      fill(1_000, 'buy', '100', '1', '0.1', { clientOrderId: 'prix-é€-😀', intentId: 'i,"quoted"\nline' }),
      fill(2_000, 'sell', '101', '1', '0.1', { clientOrderId: `long-${'ü'.repeat(70_000)}` }),
      ...Array.from({ length: 3_000 }, (_, i) => fill(3_000 + i, i % 2 === 0 ? 'buy' : 'sell', '102.5', '0.25', '0', { tradeId: `t-${'ß'.repeat(i % 40)}` })),
    ];
    const writer = new StreamedRowsWriter(dir, 'USDT', ['BTCUSDT']);
    for (const f of fills) writer.fill(f);
    await writer.finish([], { initialBalances: { USDT: dec(0) }, finalBalances: { USDT: dec(0) } });
    expect(readFileSync(path.join(dir, 'fills.csv'))).toEqual(Buffer.from(toCsv(FILL_COLUMNS, fills.map(fillCells)), 'utf8'));
  });
});
