import type { ReplayFrame } from '../recording/frame-batches.js';

/**
 * A read-ahead window over a stream of frame batches: the replay takes frames one by one without
 * an await while the current batch lasts, and can look a few frames ahead (a candle's next open)
 * across batch boundaries. Holds at most the frames asked for plus one batch.
 */
export class FrameQueue {
  private frames: ReplayFrame[] = [];
  private pos = 0;
  private isEnded = false;

  constructor(private readonly batches: AsyncIterator<ReplayFrame[]>) {}

  /** True once the stream has no more batches: the buffered frames are all there is. */
  get ended(): boolean {
    return this.isEnded;
  }

  /** Frames buffered and not yet taken. */
  get available(): number {
    return this.frames.length - this.pos;
  }

  /** Reads batches until at least `count` frames are buffered or the stream ends; true when `count` are. */
  async fill(count: number): Promise<boolean> {
    while (this.available < count && !this.isEnded) {
      const next = await this.batches.next();
      if (next.done === true) {
        this.isEnded = true;
        break;
      }
      // Taken frames are dropped here, so the buffer never grows beyond what is still ahead.
      this.frames = this.pos === this.frames.length ? next.value : this.frames.slice(this.pos).concat(next.value);
      this.pos = 0;
    }
    return this.available >= count;
  }

  /** The `index`-th buffered frame ahead (0 = the next one), if buffered. */
  peek(index: number): ReplayFrame | undefined {
    return this.frames[this.pos + index];
  }

  /** Copy of the buffered frames not yet taken. */
  buffered(): ReplayFrame[] {
    return this.frames.slice(this.pos);
  }

  /** Takes the next buffered frame (undefined when none is buffered: call {@link fill} first). */
  shift(): ReplayFrame | undefined {
    if (this.pos >= this.frames.length) return undefined;
    return this.frames[this.pos++];
  }
}
