import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.js';

const COMMANDS = ['backtest', 'sweep', 'paper', 'live', 'compare', 'demo', 'sandbox', 'record', 'import-candles'];

/** Runs `tradeloop <argv>` in this process and captures what it printed. */
async function tradeloop(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((out += String(chunk)), true));
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((err += String(chunk)), true));
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void (out += `${a.join(' ')}\n`));
  const error = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void (err += `${a.join(' ')}\n`));
  try {
    return { code: await main(argv), out, err };
  } finally {
    for (const spy of [stdout, stderr, log, error]) spy.mockRestore();
  }
}

const lines = (text: string) => text.split('\n').filter((l) => l.length > 0);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tradeloop-cli-usage-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

describe('tradeloop help', () => {
  it('lists every command in lines of at most 80 characters', async () => {
    const { code, out } = await tradeloop('help');
    expect(code).toBe(0);
    for (const name of COMMANDS) expect(out).toMatch(new RegExp(`^  ${name} `, 'm'));
    expect(Math.max(...out.split('\n').map((l) => l.length))).toBeLessThanOrEqual(80);
  });

  it('prints the same help without arguments, exit 0', async () => {
    const bare = await tradeloop();
    expect(bare.code).toBe(0);
    expect(bare.out).toBe((await tradeloop('help')).out);
  });

  it.each(COMMANDS)('%s --help shows options and examples, exit 0', async (name) => {
    const { code, out, err } = await tradeloop(name, '--help');
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out).toContain(`Usage: tradeloop ${name}`);
    expect(out).toMatch(/Examples:\n {2}\$ tradeloop /);
  });
});

describe('bad usage: one line naming the flag, exit 2', () => {
  it.each([
    [['backtest', '--nope'], /^tradeloop backtest: unknown option '--nope'/],
    [['backtest', '--seed'], /^tradeloop backtest: option '--seed <n>' argument missing$/],
    [['backtest', '--seed', '1.5'], /^tradeloop backtest: option '--seed <n>' argument '1.5' is invalid\. must be a non-negative integer$/],
    [['sweep', '--workers', '0'], /^tradeloop sweep: option '--workers <n>' argument '0' is invalid/],
    [['sandbox', '--port', '70000'], /^tradeloop sandbox: option '--port <n>' argument '70000' is invalid/],
    [['paper', '--duration', 'soon', '--config', 'x.yaml'], /^tradeloop paper: option '--duration <seconds>' argument 'soon' is invalid/],
    [['paper'], /^tradeloop paper: required option '--config <file>' not specified$/],
    [['record', '--symbols', 'BTCUSDT', '--out', 'x.jsonl.gz'], /^tradeloop record: required option '--ws-base-url <url>' not specified$/],
    [['import-candles', '--symbol', 'X', '--out', 'y'], /^tradeloop import-candles: missing required argument 'file.csv'$/],
    [['bogus'], /^tradeloop: unknown command 'bogus'$/],
    [['backtest', '--confg', 'x.yaml'], /^tradeloop backtest: unknown option '--confg' \(did you mean --config\?\)$/],
    [['bactest'], /^tradeloop: unknown command 'bactest' \(did you mean backtest\?\)$/],
  ])('%j', async (argv, message) => {
    const { code, err } = await tradeloop(...argv);
    expect(code).toBe(2);
    expect(lines(err)).toHaveLength(1);
    expect(err.trim()).toMatch(message);
  });
});

describe('user errors: one line, no stack trace, exit 1', () => {
  it.each([
    ['a missing config', () => ['backtest', '--config', path.join(dir, 'none.yaml')], /config: no such file/],
    ['a folder as the config', () => ['backtest', '--config', dir], /config: is a folder, not a file/],
    ['a folder as the recording', () => ['backtest', '--recording', dir, '--quiet'], /--recording: is a folder, not a file/],
    ['an --out under a file', () => ['backtest', '--out', path.join(dir, 'a-file', 'report'), '--quiet'], /--out: cannot be created: .*a-file is a file/],
    // As root, access() calls /proc writable, and a recursive mkdir there never returns.
    ['an --out no folder can be made in', () => ['backtest', '--out', '/proc/tradeloop-report', '--quiet'], /--out: cannot be created: ENOENT/],
    ['an --out that is a folder', () => ['record', '--ws-base-url', 'ws://127.0.0.1:9', '--symbols', 'X', '--out', dir], /--out: is a folder, not a file/],
  ])('%s', async (_name, argv, message) => {
    writeFileSync(path.join(dir, 'a-file'), 'x');
    const { code, err } = await tradeloop(...argv());
    expect(code).toBe(1);
    expect(lines(err)).toHaveLength(1);
    expect(err).toMatch(message);
    expect(err).not.toMatch(/\n\s+at /);
  });

  it('a gzip recording that is not gzip names the zlib error, before any report is written', async () => {
    const bad = path.join(dir, 'bad.jsonl.gz');
    writeFileSync(bad, 'not gzip at all\n');
    const out = path.join(dir, 'bad-report');
    const { code, err } = await tradeloop('backtest', '--recording', bad, '--out', out, '--quiet');
    expect(code).toBe(1);
    expect(lines(err)).toHaveLength(1);
    expect(err).toMatch(/gzip|Z_DATA_ERROR|bad\.jsonl\.gz/);
  });

  it('--debug adds the stack trace of a user error', async () => {
    const { code, err } = await tradeloop('backtest', '--config', path.join(dir, 'none.yaml'), '--debug');
    expect(code).toBe(1);
    expect(err).toMatch(/^tradeloop backtest: config: no such file/);
    expect(err).toMatch(/\n\s+at /);
  });
});
