import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../framework/log/logger.js';
import { ValidationError } from '../../framework/model/errors.js';
import { secretArb, withSecretArb } from './redact-arbitraries.js';

function tempFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'tradeloop-log-')), 'nested', 'bot.jsonl');
}

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

describe('createLogger', () => {
  it('never writes a known secret to the file, wherever the fields or the message hold it', async () => {
    await fc.assert(
      fc.asyncProperty(secretArb.chain((s) => fc.tuple(fc.constant(s), withSecretArb(s), fc.string())), async ([secret, fields, text]) => {
        const file = tempFile();
        const log = createLogger({ level: 'debug', file, console: 'off', secrets: [secret] });
        log.runtime.log('info', `${text}${secret}`, { value: fields });
        log.runtime.log('debug', 'error field', { error: new Error(`failed with ${secret}`) });
        log.logger.warn(`direct ${secret}`, { meta: fields });
        await log.close();
        const written = readFileSync(file, 'utf8');
        expect(written.split('\n').filter((l) => l !== '')).toHaveLength(3);
        expect(written).not.toContain(secret);
      }),
      { numRuns: 40 },
    );
  });

  it('writes JSON lines with timestamp, level, message and fields, at or above the level', async () => {
    const file = tempFile();
    let t = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
    const log = createLogger({ level: 'info', file, console: 'off', now: () => t++ });
    log.runtime.log('debug', 'dropped');
    log.runtime.log('info', 'order placed', { symbol: 'ETHUSDT', price: '2500.5', apiKey: 'k' });
    log.runtime.log('warn', 'multi\nline "text"');
    log.runtime.log('error', 'halted', { reason: { kind: 'drawdown' } });
    await log.close();
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines.at(-1)).toBe('');
    const records = lines.slice(0, -1).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records).toEqual([
      { timestamp: '2026-01-02T03:04:05.678Z', level: 'info', message: 'order placed', fields: { symbol: 'ETHUSDT', price: '2500.5', apiKey: '[redacted]' } },
      { timestamp: '2026-01-02T03:04:05.679Z', level: 'warn', message: 'multi\nline "text"' },
      { timestamp: '2026-01-02T03:04:05.680Z', level: 'error', message: 'halted', fields: { reason: { kind: 'drawdown' } } },
    ]);
    expect(Object.keys(records[0] ?? {})).toEqual(['timestamp', 'level', 'message', 'fields']);
  });

  it('filters by level: error only keeps errors, debug keeps everything', async () => {
    for (const [level, expected] of [['error', ['e']], ['warn', ['w', 'e']], ['debug', ['d', 'i', 'w', 'e']]] as const) {
      const file = tempFile();
      const log = createLogger({ level, file, console: 'off' });
      log.runtime.log('debug', 'd');
      log.runtime.log('info', 'i');
      log.runtime.log('warn', 'w');
      log.runtime.log('error', 'e');
      await log.close();
      const messages = readFileSync(file, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { message: string }).message);
      expect(messages).toEqual(expected);
    }
  });

  it('prints one pretty line per entry on the console, redacted, colored only when asked', async () => {
    const plain = capture();
    const log = createLogger({ level: 'info', console: 'pretty', consoleStream: plain.stream, secrets: ['0123456789abcdef'], now: () => Date.UTC(2026, 0, 1, 13, 14, 15, 16) });
    log.runtime.log('info', 'placed with 0123456789abcdef', { symbol: 'ETHUSDT', qty: '0.5', note: 'two words', ok: true });
    log.runtime.log('error', 'failed', { error: new Error('boom') });
    await log.close();
    expect(plain.text()).toBe('13:14:15.016 INFO  placed with [redacted] symbol=ETHUSDT qty=0.5 note="two words" ok=true\n13:14:15.016 ERROR failed error="Error: boom"\n');

    const colored = capture();
    const log2 = createLogger({ level: 'info', console: 'pretty', consoleStream: colored.stream, colors: true });
    log2.runtime.log('warn', 'w');
    await log2.close();
    expect(colored.text()).toContain('\x1b[33mWARN ');
  });

  it('prints JSON lines on the console when asked, and adds secrets learned later', async () => {
    const out = capture();
    const log = createLogger({ level: 'info', console: 'json', consoleStream: out.stream });
    log.runtime.log('info', 'key ZYXWVUTSRQ0987 loaded');
    log.addSecrets(['ZYXWVUTSRQ0987']);
    log.runtime.log('info', 'key ZYXWVUTSRQ0987 used');
    await log.close();
    const messages = out.text().trim().split('\n').map((l) => (JSON.parse(l) as { message: string }).message);
    expect(messages).toEqual(['key ZYXWVUTSRQ0987 loaded', 'key [redacted] used']);
  });

  it('logs an Error handed to winston directly with its stack, redacted, leaving the Error as it was', async () => {
    const file = tempFile();
    const log = createLogger({ level: 'info', file, console: 'off', secrets: ['s3cr3t-value-123'] });
    const error = new Error('rejected key s3cr3t-value-123');
    log.logger.error(error);
    log.logger.error('request failed', { status: 401, authorization: 'HS256 abc' });
    await log.close();
    const [first, second] = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(first?.['message']).toBe('rejected key [redacted]');
    expect(String(first?.['stack'])).toMatch(/^Error: rejected key \[redacted\]\n\s+at /);
    expect(second).toMatchObject({ level: 'error', message: 'request failed', status: 401, authorization: '[redacted]' });
    expect(error.message).toBe('rejected key s3cr3t-value-123');
    // winston itself tags the Error with `level`; nothing else is added.
    expect(Object.keys(error)).toEqual(['level']);
  });

  it('names the log file it cannot open, at creation', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tradeloop-log-'));
    writeFileSync(join(dir, 'blocker'), 'a file where the log folder should be');
    const file = join(dir, 'blocker', 'bot.jsonl');
    expect(() => createLogger({ level: 'info', file, console: 'off' })).toThrow(ValidationError);
    expect(() => createLogger({ level: 'info', file, console: 'off' })).toThrow(/^logging\.file: cannot be opened for writing \(E[A-Z]+\)/);
  });

  it('closes cleanly with every output off', async () => {
    const log = createLogger({ level: 'info', console: 'off' });
    log.runtime.log('info', 'nowhere');
    await expect(log.close()).resolves.toBeUndefined();
  });

  it('closes a file it never wrote to, leaving it empty, and writes when a later entry is at its level', async () => {
    const quiet = tempFile();
    const unused = createLogger({ level: 'warn', file: quiet, console: 'off' });
    unused.runtime.log('info', 'below the level');
    await unused.close();
    expect(readFileSync(quiet, 'utf8')).toBe('');

    const later = tempFile();
    const log = createLogger({ level: 'warn', file: later, console: 'off' });
    log.runtime.log('debug', 'below the level');
    log.runtime.log('error', 'at the level', { n: 1 });
    await log.close();
    const lines = readFileSync(later, 'utf8').split('\n').filter((l) => l !== '');
    expect(lines.map((l) => (JSON.parse(l) as { message: string }).message)).toEqual(['at the level']);
  });
});
