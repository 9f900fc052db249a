import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

/**
 * Writes an OHLCV CSV of `rows` one-minute BTC-like candles, as downloaded history looks: prices
 * with 2 decimals and a volume column written from floats (17 significant digits on many rows).
 * Deterministic (a fixed linear congruential sequence), so runs are comparable.
 *
 *   npx tsx bench/support/generate-candle-csv.ts 45000 /tmp/btc-m1.csv
 */
async function main(rows: number, path: string): Promise<void> {
  const out = createWriteStream(path);
  let seed = 12345;
  const next = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  let cents = 4_228_358; // 42283.58
  const start = 1_704_067_200; // 2024-01-01T00:00:00Z
  out.write('timestamp,open,high,low,close,volume\n');
  for (let i = 0; i < rows; i++) {
    const open = cents;
    const close = Math.max(100, open + Math.round((next() - 0.5) * 4000));
    const high = Math.max(open, close) + Math.round(next() * 1500);
    const low = Math.max(1, Math.min(open, close) - Math.round(next() * 1500));
    // A float sum, as exporters write it: often 17 significant digits.
    const volume = next() * 300 + 0.1 + 0.2;
    const line = `${start + i * 60},${price(open)},${price(high)},${price(low)},${price(close)},${String(volume)}\n`;
    if (!out.write(line)) await once(out, 'drain');
    cents = close;
  }
  out.end();
  await once(out, 'finish');
}

function price(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

const [rowsText, path] = process.argv.slice(2);
if (rowsText === undefined || path === undefined || !/^\d+$/.test(rowsText)) {
  console.error('usage: generate-candle-csv ROWS OUT.csv');
  process.exitCode = 1;
} else {
  await main(Number(rowsText), path);
}
