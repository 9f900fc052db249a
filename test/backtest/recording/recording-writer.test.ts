import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedFrame, RecordingHeader } from '../../../backtest/recording/recording-format.js';
import { RecordingReader } from '../../../backtest/recording/recording-reader.js';
import { RecordingWriter, rotatedPath } from '../../../backtest/recording/recording-writer.js';
import { SyntheticMarket } from '../../../backtest/venue/synthetic/synthetic-market.js';
import { ValidationError } from '../../../framework/model/errors.js';

const START = 1_704_067_200_000;
const dirs: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tradeloop-writer-'));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function readAll(path: string): Promise<{ header: RecordingHeader | undefined; frames: RecordedFrame[] }> {
  const reader = new RecordingReader(path);
  const frames: RecordedFrame[] = [];
  for await (const frame of reader.frames()) frames.push(frame);
  return { header: reader.header, frames };
}

function sample(seed: number, durationMs: number): { header: RecordingHeader; frames: RecordedFrame[] } {
  const market = new SyntheticMarket({ seed, symbols: ['BTCUSDT', 'ETHUSDT'] });
  return { header: market.header(), frames: [...market.frames({ start: START, durationMs })] };
}

describe('RecordingWriter', () => {
  it.each(['plain.jsonl', 'packed.jsonl.gz'])('round-trips through RecordingReader (%s)', async (name) => {
    const { header, frames } = sample(1, 20_000);
    const path = join(tempDir(), name);
    const writer = new RecordingWriter(path, header);
    for (const frame of frames) await writer.write(frame);
    await writer.close();
    const back = await readAll(path);
    expect(back.frames).toEqual(JSON.parse(JSON.stringify(frames)));
    expect(back.header?.venue).toBe('sandbox');
    expect(back.header?.note).toBe('synthetic market, seed 1');
    expect(back.header?.symbols.ETHUSDT?.quantity_increment.toFixed()).toBe('0.0001');
    expect(back.header?.symbols.BTCUSDT?.take_rate.toFixed()).toBe('0.0025');
    const raw = readFileSync(path);
    const body = name.endsWith('.gz') ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
    expect(body.split('\n')).toHaveLength(frames.length + 2); // header, frames, final newline
  });

  it('hands a few lines to the file within the turn after they were written, not at close', async () => {
    const { header, frames } = sample(3, 2_000);
    const path = join(tempDir(), 'live.jsonl');
    const writer = new RecordingWriter(path, header);
    const few = frames.slice(0, 3);
    for (const frame of few) await writer.write(frame);
    // Written at the end of the turn, then by the file stream: poll briefly rather than assume its timing.
    let lines: string[] = [];
    for (let i = 0; i < 100 && lines.length < few.length + 1; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      lines = readFileSync(path, 'utf8').split('\n').filter((line) => line.length > 0);
    }
    expect(lines.slice(1).map((line) => JSON.parse(line) as unknown)).toEqual(JSON.parse(JSON.stringify(few)));
    await writer.close();
  });

  it('keeps call order when writes are not awaited one by one (backpressure waits are serialised)', async () => {
    const { header, frames } = sample(2, 60_000);
    const path = join(tempDir(), 'burst.jsonl.gz');
    const writer = new RecordingWriter(path, header);
    await Promise.all(frames.map((frame) => writer.write(frame)));
    await writer.close();
    expect((await readAll(path)).frames).toEqual(JSON.parse(JSON.stringify(frames)));
  });

  it('rotates by size: every file is a complete recording and together they hold every frame', async () => {
    const { header, frames } = sample(3, 30_000);
    const dir = tempDir();
    const writer = new RecordingWriter(join(dir, 'cap.jsonl'), header, { rotateBytes: 100_000 });
    for (const frame of frames) await writer.write(frame);
    await writer.close();
    expect(writer.paths.length).toBeGreaterThan(2);
    expect(writer.paths.slice(0, 3)).toEqual([join(dir, 'cap.jsonl'), join(dir, 'cap.0001.jsonl'), join(dir, 'cap.0002.jsonl')]);
    expect(readdirSync(dir).sort()).toEqual(writer.paths.map((p) => p.slice(dir.length + 1)).sort());
    const all: RecordedFrame[] = [];
    for (const path of writer.paths) {
      const part = await readAll(path);
      expect(part.header?.symbols.BTCUSDT?.tick_size.toFixed()).toBe('0.01');
      expect(part.frames.length).toBeGreaterThan(0);
      all.push(...part.frames);
    }
    expect(all).toEqual(JSON.parse(JSON.stringify(frames)));
    // Size is checked before each frame, so a file overshoots by at most one line.
    for (const path of writer.paths.slice(0, -1)) expect(readFileSync(path).length).toBeLessThan(100_000 + 20_000);
  });

  it('rotates by time (gzip), starting each file with the preamble frames', async () => {
    const { header, frames } = sample(4, 25_000);
    const dir = tempDir();
    let rotations = 0;
    const preamble = (): RecordedFrame[] => [{ t: lastT, src: 'ws/public', msg: { ch: 'marker', n: ++rotations } }];
    let lastT = 0;
    const writer = new RecordingWriter(join(dir, 'cap.jsonl.gz'), header, { rotateMs: 10_000, rotationPreamble: preamble });
    for (const frame of frames) {
      lastT = frame.t;
      await writer.write(frame);
    }
    await writer.close();
    expect(writer.paths.map((p) => p.slice(dir.length + 1))).toEqual(['cap.jsonl.gz', 'cap.0001.jsonl.gz', 'cap.0002.jsonl.gz']);
    for (const [index, path] of writer.paths.entries()) {
      const part = await readAll(path);
      const data = part.frames.filter((f) => (f.msg as { ch: string }).ch !== 'marker');
      const span = (data.at(-1)?.t ?? 0) - (data[0]?.t ?? 0);
      expect(span).toBeLessThan(10_000);
      if (index > 0) expect(part.frames[0]?.msg).toEqual({ ch: 'marker', n: index });
    }
  });

  it('refuses frames that go back in time, malformed frames and login requests, without echoing credentials', async () => {
    const writer = new RecordingWriter(join(tempDir(), 'x.jsonl'), sample(5, 1).header);
    await writer.write({ t: 10, src: 'ws/public', msg: {} });
    await expect(writer.write({ t: 9, src: 'ws/public', msg: {} })).rejects.toThrow(/^frame\.t: must not go back in time/);
    await expect(writer.write({ t: 11, src: 'ws/other' as 'ws/public', msg: {} })).rejects.toThrow(/^frame\.src/);
    await expect(writer.write({ t: 11, src: 'ws/public', msg: null })).rejects.toThrow(ValidationError);
    const login = { t: 11, src: 'ws/trading' as const, msg: { method: 'login', params: { type: 'BASIC', api_key: 'KEY123', secret_key: 'SECRET456' } } };
    const error = await writer.write(login).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(String((error as Error).message)).not.toMatch(/KEY123|SECRET456/);
    await writer.close();
    await writer.close();
    await expect(writer.write({ t: 12, src: 'ws/public', msg: {} })).rejects.toThrow(/closed/);
    expect((await readAll(writer.path)).frames).toHaveLength(1);
  });

  it('rejects bad rotation options and reports a file that cannot be written', async () => {
    const header = sample(6, 1).header;
    expect(() => new RecordingWriter(join(tempDir(), 'a.jsonl'), header, { rotateBytes: 0 })).toThrow(/^rotateBytes:/);
    expect(() => new RecordingWriter(join(tempDir(), 'a.jsonl'), header, { rotateMs: Number.NaN })).toThrow(/^rotateMs:/);
    const writer = new RecordingWriter(join(tempDir(), 'missing-dir', 'a.jsonl'), header);
    await expect(writer.close()).rejects.toThrow(/ENOENT/);
  });

  it('names rotated files with a counter before the extension', () => {
    expect(rotatedPath('/d/cap.jsonl.gz', 1)).toBe('/d/cap.0001.jsonl.gz');
    expect(rotatedPath('/d.x/cap.jsonl', 12)).toBe('/d.x/cap.0012.jsonl');
    expect(rotatedPath('cap.gz', 2)).toBe('cap.0002.gz');
    expect(rotatedPath('cap', 3)).toBe('cap.0003');
  });
});
