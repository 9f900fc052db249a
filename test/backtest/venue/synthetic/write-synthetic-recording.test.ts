import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedFrame } from '../../../../backtest/recording/recording-format.js';
import { RecordingReader } from '../../../../backtest/recording/recording-reader.js';
import { SyntheticMarket } from '../../../../backtest/venue/synthetic/synthetic-market.js';
import { writeSyntheticRecording } from '../../../../backtest/venue/synthetic/write-synthetic-recording.js';

const dirs: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tradeloop-synthetic-'));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('writeSyntheticRecording', () => {
  it('writes the seeded market as a recording the reader replays frame for frame', async () => {
    const path = join(tempDir(), 'sample.jsonl.gz');
    const result = await writeSyntheticRecording(path, { seed: 11, symbols: ['BTCUSDT', 'ETHUSDT'], durationMs: 15_000 });
    expect(result.paths).toEqual([path]);
    const reader = new RecordingReader(path);
    const frames: RecordedFrame[] = [];
    for await (const frame of reader.frames()) frames.push(frame);
    expect(frames).toHaveLength(result.frames);
    const expected = [...new SyntheticMarket({ seed: 11, symbols: ['BTCUSDT', 'ETHUSDT'] }).frames({ start: 1_704_067_200_000, durationMs: 15_000 })];
    expect(frames).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(reader.header?.note).toBe('synthetic market, seed 11');
    expect(Object.keys(reader.header?.symbols ?? {})).toEqual(['BTCUSDT', 'ETHUSDT']);
  });

  it('writes the same bytes for the same seed, so a shipped sample can be regenerated', async () => {
    const dir = tempDir();
    const a = join(dir, 'a.jsonl.gz');
    const b = join(dir, 'b.jsonl.gz');
    await writeSyntheticRecording(a, { seed: 21, durationMs: 5_000 });
    await writeSyntheticRecording(b, { seed: 21, durationMs: 5_000 });
    expect(gunzipSync(readFileSync(a)).equals(gunzipSync(readFileSync(b)))).toBe(true);
  });

  it('validates before creating any file', async () => {
    const path = join(tempDir(), 'never.jsonl');
    await expect(writeSyntheticRecording(path, { seed: 1, durationMs: 0 })).rejects.toThrow(/^durationMs:/);
    await expect(writeSyntheticRecording(path, { seed: 1, durationMs: 1_000, start: -5 })).rejects.toThrow(/^start:/);
    await expect(writeSyntheticRecording(path, { seed: 1, durationMs: 1_000, symbols: ['nope'] })).rejects.toThrow(/^symbols\[0\]\.symbol:/);
    expect(existsSync(path)).toBe(false);
  });
});
