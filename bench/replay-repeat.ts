import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { readLines } from '../backtest/recording/recording-reader.js';

interface Frame { t: number; src: string; msg: { ch?: string; snapshot?: Record<string, unknown>; update?: Record<string, unknown> } }

/**
 * Writes `times` copies of a recording back to back into `out` (gzip): the header once, then the
 * frames again and again with local and exchange times shifted by the recording's span (+1 ms,
 * so times keep increasing) and trade ids by their range, so each copy replays as fresh market
 * data. Each copy starts with the recording's own book snapshot, which resets the books.
 */
export async function writeRepeated(file: string, times: number, out: string): Promise<{ frames: number; spanMs: number }> {
  let header = '';
  const frames: Frame[] = [];
  for await (const line of readLines(file)) {
    if (line.length === 0) continue;
    if (header === '') header = line;
    else frames.push(JSON.parse(line) as Frame);
  }
  const first = frames[0];
  const last = frames[frames.length - 1];
  if (first === undefined || last === undefined) throw new Error(`${file}: no frames`);
  const spanMs = Math.ceil(last.t - first.t) + 1;
  const ids = tradeIdRange(frames);
  const gzip = createGzip();
  const sink = gzip.pipe(createWriteStream(out));
  const write = async (text: string): Promise<void> => {
    if (!gzip.write(text)) await once(gzip, 'drain');
  };
  await write(header + '\n');
  for (let copy = 0; copy < times; copy++) {
    const shift = copy * spanMs;
    const idShift = copy * (ids.max - ids.min + 1);
    for (const frame of frames) await write(JSON.stringify(copy === 0 ? frame : shifted(frame, shift, idShift)) + '\n');
  }
  gzip.end();
  await once(sink, 'finish');
  return { frames: frames.length * times, spanMs };
}

function shifted(frame: Frame, shift: number, idShift: number): Frame {
  const body = frame.msg.snapshot ?? frame.msg.update ?? {};
  const moved: Record<string, unknown> = {};
  for (const [symbol, data] of Object.entries(body)) {
    if (Array.isArray(data)) moved[symbol] = (data as { t?: number; i?: number }[]).map((x) => ({ ...x, ...(x.t === undefined ? {} : { t: x.t + shift }), ...(x.i === undefined ? {} : { i: x.i + idShift }) }));
    else if (data !== null && typeof data === 'object') {
      const d = data as { t?: number };
      moved[symbol] = d.t === undefined ? d : { ...d, t: d.t + shift };
    } else moved[symbol] = data;
  }
  const key = frame.msg.snapshot !== undefined ? 'snapshot' : 'update';
  return { ...frame, t: frame.t + shift, msg: { ...frame.msg, [key]: moved } };
}

function tradeIdRange(frames: readonly Frame[]): { min: number; max: number } {
  let min = Infinity;
  let max = -Infinity;
  for (const f of frames) {
    if (f.msg.ch !== 'trades') continue;
    for (const list of Object.values(f.msg.update ?? f.msg.snapshot ?? {})) {
      if (!Array.isArray(list)) continue;
      for (const x of list as { i?: number }[]) if (typeof x.i === 'number') { min = Math.min(min, x.i); max = Math.max(max, x.i); }
    }
  }
  return Number.isFinite(min) ? { min, max } : { min: 0, max: 0 };
}
