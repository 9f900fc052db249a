import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.js';

const RECORDING = fileURLToPath(new URL('../fixtures/synthetic-eth-cut.v3.jsonl.gz', import.meta.url));

/** Runs `tradeloop <argv>` in this process and captures what it printed. */
async function tradeloop(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((out += String(chunk)), true));
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((err += String(chunk)), true));
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void (out += `${a.join(' ')}\n`));
  try {
    return { code: await main(argv), out, err };
  } finally {
    for (const spy of [stdout, stderr, log]) spy.mockRestore();
  }
}

let dir: string;
let first: string;
let second: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'tradeloop-compare-'));
  first = path.join(dir, 'bt-1');
  second = path.join(dir, 'bt-2');
  for (const out of [first, second]) expect((await tradeloop('backtest', '--quiet', '--recording', RECORDING, '--out', out)).code).toBe(0);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** fills.csv of `folder` as lines (CRLF ends), header first. */
const fillLines = (folder: string): string[] => readFileSync(path.join(folder, 'fills.csv'), 'utf8').split('\r\n').filter((l) => l.length > 0);

describe('tradeloop compare', () => {
  it('finds two backtests of the same run identical: 100 %, no divergence', async () => {
    const fills = fillLines(first).length - 1;
    expect(fills).toBeGreaterThan(1);
    // A backtest's fills name the frame behind each decision, as a paper run's do.
    const header = fillLines(first)[0]!.split(',');
    const row = fillLines(first)[1]!.split(',');
    expect(row[header.indexOf('decision_symbol')]).toBe('ETHUSDT');
    expect(Number(row[header.indexOf('decision_sequence')])).toBeGreaterThan(0);
    expect(Number(row[header.indexOf('decision_frame')])).toBeGreaterThan(0);
    const out = path.join(dir, 'same');
    const run = await tradeloop('compare', first, second, '--out', out);
    expect(run.code).toBe(0);
    expect(run.out).toContain(`identical fills: ${fills} of ${fills} pairs (100%)`);
    expect(run.out).toContain('difference B - A 0 USDT');
    expect(run.out).toContain('no divergence');
    const csv = readFileSync(path.join(out, 'comparison.csv'), 'utf8').split('\r\n').filter((l) => l.length > 0);
    expect(csv).toHaveLength(fills + 1);
    expect(csv.slice(1).every((l) => l.split(',')[1] === 'identical')).toBe(true);
    expect(readFileSync(path.join(out, 'comparison.html'), 'utf8')).toContain('identical fills');
  });

  it('names the cause of a fill whose price was changed, and of a fill taken away', async () => {
    const changed = path.join(dir, 'changed');
    cpSync(second, changed, { recursive: true });
    const lines = fillLines(changed);
    const header = lines[0]!.split(',');
    const priceColumn = header.indexOf('price');
    const cells = lines[2]!.split(',');
    cells[priceColumn] = `${cells[priceColumn]}1`;
    const kept = [lines[0]!, lines[1]!, cells.join(','), ...lines.slice(4)];
    writeFileSync(path.join(changed, 'fills.csv'), `${kept.join('\r\n')}\r\n`);
    const fills = lines.length - 1;

    const out = path.join(dir, 'changed-report');
    const run = await tradeloop('compare', first, changed, '--out', out);
    expect(run.code).toBe(0);
    expect(run.out).toContain(`identical fills: ${fills - 2} of ${fills} pairs`);
    expect(run.out).toMatch(/first divergence: pair 2 at [^:]+:[^:]+:[^:]+: price \(price /);
    expect(run.out).toContain('causes: missing 1, price 1');
    const csv = readFileSync(path.join(out, 'comparison.csv'), 'utf8');
    expect(csv).toMatch(/\r\n2,divergent,price,/);
    expect(csv).toMatch(/\r\n3,only_a,missing,/);
  });

  it('refuses a missing folder and a folder that is not a run\'s output, in one line', async () => {
    const missing = await tradeloop('compare', path.join(dir, 'nowhere'), second);
    expect(missing.code).toBe(1);
    expect(missing.err).toBe(`tradeloop compare: A: no such folder (got ${JSON.stringify(path.join(dir, 'nowhere'))})\n`);
    const notRun = await tradeloop('compare', first, dir, '--out', path.join(dir, 'x'));
    expect(notRun.code).toBe(1);
    expect(notRun.err).toBe(`tradeloop compare: B: is not the output folder of a backtest, paper or live run (no fills.csv) (got ${JSON.stringify(dir)})\n`);
  });

  it('shows its options and examples with --help', async () => {
    const help = await tradeloop('compare', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('--tolerance <ms>');
    expect(help.out).toContain('$ tradeloop compare reports/backtest-day1 reports/paper-day1');
  });
});
