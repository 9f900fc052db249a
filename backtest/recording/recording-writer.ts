import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { ValidationError } from '../../framework/model/errors.js';
import { symbolInfoToWire } from '../../framework/model/resources/symbol.js';
import { RECORDING_SOURCES, type RecordedFrame, type RecordingHeader } from './recording-format.js';

/** Options of {@link RecordingWriter}. */
export interface RecordingWriterOptions {
  /**
   * Start a new file once the current one holds at least this many bytes of JSON text (counted
   * before compression, so the limit means the same for `.gz` and plain files).
   */
  readonly rotateBytes?: number;
  /** Start a new file when a frame's `t` is this many ms or more after the current file's first frame. */
  readonly rotateMs?: number;
  /**
   * Frames written right after the header of each rotated file, before the frame that triggered
   * the rotation; a recorder returns its current `orderbook/full` snapshots here so that every
   * file replays on its own. Their `t` must not be earlier than the last frame written.
   */
  readonly rotationPreamble?: () => Iterable<RecordedFrame>;
}

/**
 * Writes a recording (recording-format.md): the header line, then one frame per line, gzip when
 * the path ends in `.gz`.
 *
 * - Backpressure: {@link write} resolves once the frame is buffered, waiting for `drain` when the
 *   stream's buffer is full, so a fast producer cannot grow memory without bound. Concurrent
 *   calls are serialised in call order.
 * - Durability: {@link close} ends the gzip member, flushes, fsyncs and closes the file.
 * - Rotation (optional, by size and/or time): the first file is `path`; the next ones insert a
 *   counter before the extension (`capture.jsonl.gz`, `capture.0001.jsonl.gz`, ...), each starting
 *   with the same header so it is a complete recording on its own. {@link paths} lists them in order.
 *
 * Secrets: the writer stores exactly what it is given and cannot know which fields are secret, so
 * callers pass what the exchange sent on public or authenticated streams (frames as received),
 * never requests, headers or credentials. As a last guard a `login` request frame is refused.
 */
export class RecordingWriter {
  private sink: Sink;
  private readonly files: string[] = [];
  private pending: Promise<void> | undefined;
  private lastT = Number.NEGATIVE_INFINITY;
  private fileStartT = Number.NaN;
  private closed = false;

  constructor(
    readonly path: string,
    private readonly header: RecordingHeader,
    private readonly options: RecordingWriterOptions = {},
  ) {
    const { rotateBytes, rotateMs } = options;
    if (rotateBytes !== undefined && !(Number.isSafeInteger(rotateBytes) && rotateBytes > 0)) {
      throw new ValidationError('rotateBytes', 'must be a positive integer', rotateBytes);
    }
    if (rotateMs !== undefined && !(Number.isFinite(rotateMs) && rotateMs > 0)) {
      throw new ValidationError('rotateMs', 'must be a positive number of ms', rotateMs);
    }
    this.sink = this.openFile(path);
  }

  /** Every file written so far, in order (the first is {@link path}). */
  get paths(): readonly string[] {
    return this.files;
  }

  /** Appends a frame; frames must come in non-decreasing `t` (the format's replay order). */
  async write(frame: RecordedFrame): Promise<void> {
    while (this.pending !== undefined) await this.pending;
    if (this.closed) throw new ValidationError('write', 'the recording writer is closed');
    checkFrame(frame, this.lastT);
    if (Number.isNaN(this.fileStartT)) this.fileStartT = frame.t;
    const { rotateBytes, rotateMs } = this.options;
    let room = true;
    if ((rotateMs !== undefined && frame.t - this.fileStartT >= rotateMs) || (rotateBytes !== undefined && this.sink.bytes >= rotateBytes)) {
      await this.settle(this.rotate());
      this.fileStartT = frame.t;
      for (const extra of this.options.rotationPreamble?.() ?? []) room = this.append(extra) && room;
    }
    room = this.append(frame) && room;
    if (!room) await this.settle(this.sink.drained());
  }

  /** Writes one checked line; false when the stream asks the producer to wait for `drain`. */
  private append(frame: RecordedFrame): boolean {
    checkFrame(frame, this.lastT);
    this.lastT = frame.t;
    return this.sink.write(`${JSON.stringify(frame)}\n`);
  }

  /** Flushes, fsyncs and closes the current file; later writes fail. Safe to call twice. */
  async close(): Promise<void> {
    while (this.pending !== undefined) await this.pending;
    if (this.closed) return;
    this.closed = true;
    await this.sink.end();
  }

  /** Runs `work` as the one pending operation that later writes wait for. */
  private async settle(work: Promise<void>): Promise<void> {
    this.pending = work;
    try {
      await work;
    } finally {
      this.pending = undefined;
    }
  }

  private async rotate(): Promise<void> {
    await this.sink.end();
    this.sink = this.openFile(rotatedPath(this.path, this.files.length));
  }

  private openFile(path: string): Sink {
    const sink = new Sink(path);
    this.files.push(path);
    const h = this.header;
    const symbols = Object.fromEntries(Object.entries(h.symbols).map(([code, info]) => [code, symbolInfoToWire(info)]));
    sink.write(`${JSON.stringify({ format: h.format, version: h.version, venue: h.venue, symbols, note: h.note })}\n`);
    return sink;
  }
}

/**
 * Name of the `index`-th rotated file: the counter goes before the recording extension
 * (`a.jsonl.gz` -> `a.0001.jsonl.gz`; `a.jsonl` -> `a.0001.jsonl`; no extension -> `a.0001`).
 */
export function rotatedPath(path: string, index: number): string {
  const slash = path.lastIndexOf('/');
  const name = path.slice(slash + 1);
  const match = /(\.jsonl|\.json|\.txt)?(\.gz)?$/.exec(name);
  const ext = match?.[0] ?? '';
  const stem = path.slice(0, path.length - ext.length);
  return `${stem}.${String(index).padStart(4, '0')}${ext}`;
}

function checkFrame(frame: RecordedFrame, lastT: number): void {
  const { t, src, msg } = frame;
  if (typeof t !== 'number' || !Number.isFinite(t)) throw new ValidationError('frame.t', 'must be a finite number (UNIX ms)', t);
  if (t < lastT) throw new ValidationError('frame.t', `must not go back in time (previous frame at ${lastT})`, t);
  if (!(RECORDING_SOURCES as readonly string[]).includes(src)) throw new ValidationError('frame.src', `must be one of ${RECORDING_SOURCES.join(', ')}`, src);
  if (msg === null || typeof msg !== 'object') throw new ValidationError('frame.msg', 'must be an object', typeof msg);
  // A login request carries credentials; what the exchange sends never does. The value is not echoed.
  if ((msg as { method?: unknown }).method === 'login') throw new ValidationError('frame.msg', 'must not be a login request (it carries credentials)');
}

/**
 * Lines are handed to the stream in chunks of about this many bytes: every chunk a gzip stream
 * takes is a job on libuv's thread pool and a turn of the event loop, so a line per write (a bulk
 * import writes tens of thousands) spent most of its time waiting for those round trips.
 */
const CHUNK_BYTES = 64 * 1024;

/**
 * One output file: the text stream (gzip or the file itself), its byte count and its failure.
 * Lines gather into chunks ({@link CHUNK_BYTES}); what gathered is written at the end of the turn
 * at the latest, so a live recorder's lines never wait for more traffic.
 */
class Sink {
  bytes = 0;
  private readonly file: WriteStream;
  private readonly head: Writable;
  private readonly fileClosed: Promise<void>;
  private failure: Error | undefined;
  private gathered: string[] = [];
  private gatheredBytes = 0;
  private flushScheduled = false;
  private readonly flushLater = (): void => {
    this.flushScheduled = false;
    if (this.gatheredBytes > 0 && this.failure === undefined && !this.head.writableEnded) this.writeGathered();
  };

  constructor(path: string) {
    // flush: fsync before the descriptor is closed, so close() means "on disk".
    this.file = createWriteStream(path, { flush: true });
    this.fileClosed = new Promise((resolve) => this.file.once('close', () => resolve()));
    this.file.on('error', (error) => this.fail(error));
    if (path.endsWith('.gz')) {
      const gzip = createGzip();
      gzip.on('error', (error) => this.fail(error));
      gzip.pipe(this.file);
      this.head = gzip;
    } else {
      this.head = this.file;
    }
  }

  /** Takes `text`; false when the caller should wait for {@link drained}. */
  write(text: string): boolean {
    if (this.failure) throw this.failure;
    const size = Buffer.byteLength(text);
    this.bytes += size;
    this.gathered.push(text);
    this.gatheredBytes += size;
    if (this.gatheredBytes >= CHUNK_BYTES) return this.writeGathered();
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(this.flushLater);
    }
    return true;
  }

  /** Resolves when the buffer has room again; rejects when the file failed meanwhile. */
  async drained(): Promise<void> {
    await Promise.race([once(this.head, 'drain'), this.fileClosed]);
    if (this.failure) throw this.failure;
  }

  /** Ends the stream and waits until the file is flushed, synced and closed. */
  async end(): Promise<void> {
    if (!this.failure) {
      if (this.gatheredBytes > 0) this.writeGathered();
      this.head.end();
    }
    await this.fileClosed;
    if (this.failure) throw this.failure;
  }

  private writeGathered(): boolean {
    const text = this.gathered.length === 1 ? this.gathered[0]! : this.gathered.join('');
    this.gathered = [];
    this.gatheredBytes = 0;
    return this.head.write(text);
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.gathered = [];
    this.gatheredBytes = 0;
    this.head.destroy();
    this.file.destroy();
  }
}
