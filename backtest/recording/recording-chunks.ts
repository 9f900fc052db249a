import { createReadStream, statSync, type ReadStream } from 'node:fs';
import type { Readable, TransformOptions } from 'node:stream';
import { createGunzip, type Gunzip, type ZlibOptions } from 'node:zlib';

/** Why and where the gzip stream of a `.gz` recording broke off. */
export interface StreamBreak {
  /** Compressed bytes zlib had consumed when it stopped: the break is at or after this offset. */
  readonly compressedOffset: number;
  /** Size of the file (on disk when the break was met). */
  readonly compressedSize: number;
  /** The break in words (cut off, corrupt, not gzip), with zlib's own message. */
  readonly reason: string;
}

/** Options of {@link RecordingChunks}. */
export interface RecordingChunksOptions {
  /** Bytes per read from disk and per gunzip output chunk. */
  readonly chunkSize: number;
  /** Gunzipped bytes buffered ahead of the reader; `chunkSize` by default. */
  readonly readAhead?: number;
  /** Told of every chunk read from disk (its size in bytes, compressed). */
  readonly onBytesRead?: (bytes: number) => void;
}

/**
 * The bytes of a recording in chunks, gunzipped when the name ends in `.gz`, one await per chunk.
 * A gzip stream that breaks (cut off by a killed recorder, corrupt, empty, not gzip at all) does not
 * throw: every byte zlib decoded before the break is delivered, then {@link next} answers
 * `undefined` and {@link broken} says where and why, so the caller can name the last good line.
 * Errors of the file itself (missing, unreadable) are thrown.
 *
 * Chunks are taken with `read()` rather than the stream's async iterator: the iterator drops what
 * is buffered once the stream is destroyed, and zlib destroys its stream on a break, which would
 * lose up to a read-ahead of good data and make the readable prefix depend on timing.
 */
export class RecordingChunks {
  private readonly file: ReadStream;
  private readonly gunzip: Gunzip | undefined;
  private readonly source: Readable;
  private wake: (() => void) | undefined;
  private ended = false;
  private failure: Error | undefined;
  private fileFailure: Error | undefined;
  private brokenValue: StreamBreak | undefined;

  constructor(readonly path: string, options: RecordingChunksOptions) {
    this.file = createReadStream(path, { highWaterMark: options.chunkSize });
    const onBytes = options.onBytesRead;
    if (onBytes !== undefined) this.file.on('data', (chunk: Buffer | string) => onBytes(chunk.length));
    if (path.endsWith('.gz')) {
      const gunzip: ZlibOptions & TransformOptions = { chunkSize: options.chunkSize, readableHighWaterMark: options.readAhead ?? options.chunkSize };
      this.gunzip = createGunzip(gunzip);
      this.file.on('error', (error) => this.fail(error, true));
      this.source = this.file.pipe(this.gunzip);
    } else {
      this.source = this.file;
    }
    this.source.on('readable', () => this.resume());
    this.source.on('end', () => {
      this.ended = true;
      this.resume();
    });
    this.source.on('error', (error) => this.fail(error, this.gunzip === undefined));
  }

  /** Where and why the gzip stream broke, once {@link next} has answered `undefined` because of it. */
  get broken(): StreamBreak | undefined {
    return this.brokenValue;
  }

  /** The next chunk; `undefined` at the end of the data (the file's end, or a break: see {@link broken}). */
  async next(): Promise<Buffer | undefined> {
    for (;;) {
      // read() still hands out what a destroyed stream had buffered.
      const chunk = this.source.read() as Buffer | null;
      if (chunk !== null) return chunk;
      if (this.fileFailure !== undefined) throw this.fileFailure;
      if (this.failure !== undefined) {
        this.brokenValue ??= this.describe(this.failure);
        this.close();
        return undefined;
      }
      if (this.ended) return undefined;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  /** Stops reading and releases the file. */
  close(): void {
    this.file.destroy();
    this.gunzip?.destroy();
  }

  private fail(error: Error, ofFile: boolean): void {
    if (ofFile) this.fileFailure ??= error;
    else this.failure ??= error;
    this.resume();
  }

  private resume(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private describe(error: Error): StreamBreak {
    const compressedOffset = this.gunzip?.bytesWritten ?? 0;
    // The file is read ahead of zlib: its size, not what was read so far.
    const compressedSize = statSync(this.path, { throwIfNoEntry: false })?.size ?? this.file.bytesRead;
    const code = (error as { code?: unknown }).code;
    const zlib = `zlib: ${error.message}`;
    let reason: string;
    if (compressedSize === 0) reason = 'the file is empty (no gzip data at all)';
    else if (code === 'Z_BUF_ERROR') reason = `the gzip stream is cut off: the file ends inside it, as a recorder killed or out of disk space leaves it (${zlib})`;
    else if (code === 'Z_DATA_ERROR' && compressedOffset === 0) reason = `not gzip data (${zlib})`;
    else if (code === 'Z_DATA_ERROR') reason = `corrupt gzip data at or after this byte (${zlib})`;
    else reason = `the gzip stream broke (${zlib})`;
    return { compressedOffset, compressedSize, reason };
  }
}
