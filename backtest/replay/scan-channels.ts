import { ORDER_BOOK_CHANNEL } from '../../framework/exchange/book/order-book-frame.js';
import type { ReplayFrame } from '../recording/frame-batches.js';
import { RecordingReader } from '../recording/recording-reader.js';
import type { CandlePeriod } from '../../framework/model/resources/candle.js';
import type { FrameQueue } from './frame-queue.js';

/** Frames read from the start of each recording to learn its channels. */
const SCAN_FRAMES = 5_000;

/**
 * The public channels that carry any of `symbols` near the start of the recordings (the first
 * {@link SCAN_FRAMES} frames of each): enough to tell a book recording from a candle-only one and
 * whether candles must be built from trades, without reading a whole file twice.
 */
export async function scanChannels(recordings: readonly string[], symbols: readonly string[]): Promise<Set<string>> {
  const wanted = new Set(symbols);
  const channels = new Set<string>();
  for (const path of recordings) {
    let read = 0;
    for await (const frame of new RecordingReader(path, { onError: 'skip' }).frames()) {
      if (++read > SCAN_FRAMES) break;
      addChannel(frame, wanted, channels);
    }
  }
  return channels;
}

/** Frames buffered per step while {@link channelsAhead} looks for the channels it needs. */
const AHEAD_STEP = 64;

/**
 * {@link scanChannels} over the frames the replay of one recording buffers ahead anyway (so they are
 * read once), buffering only as far as the answer can change: it stops once a book of the symbols
 * is seen (the replay is a book replay whatever follows) and, when the strategy wants candles of
 * `candles`' period, those candles are seen too; otherwise it looks at the first
 * {@link SCAN_FRAMES} frames. The replay's decisions (book or candle mode, candles to build) are
 * those the whole scan gives. Buffering little matters beyond the read: thousands of decoded
 * frames alive at once teach V8 to allocate every later frame of the same code straight in the
 * old generation (allocation-site pretenuring), where they pile up as garbage until a full
 * collection: the peak RSS of a long book replay then grows with its length.
 */
export async function channelsAhead(frames: FrameQueue, symbols: readonly string[], candles?: CandlePeriod): Promise<Set<string>> {
  const wanted = new Set(symbols);
  const channels = new Set<string>();
  for (let seen = 0; seen < SCAN_FRAMES;) {
    const more = await frames.fill(Math.min(SCAN_FRAMES, seen + AHEAD_STEP));
    for (const end = Math.min(frames.available, SCAN_FRAMES); seen < end; seen++) addChannel(frames.peek(seen)!, wanted, channels);
    if (channels.has(ORDER_BOOK_CHANNEL) && (candles === undefined || channels.has(`candles/${candles}`))) break;
    if (!more) break;
  }
  return channels;
}

function addChannel(frame: ReplayFrame, wanted: ReadonlySet<string>, channels: Set<string>): void {
  if (frame.src !== 'ws/public') return;
  if (frame.books !== undefined) {
    if (frame.books.some((book) => wanted.has(book.symbol))) channels.add(ORDER_BOOK_CHANNEL);
    for (const event of frame.events) if (wanted.has(event.symbol)) channels.add(event.channel);
    return;
  }
  const msg = frame.msg as { ch?: unknown; snapshot?: object; update?: object; data?: object };
  if (typeof msg.ch !== 'string') return;
  const bySymbol = msg.snapshot ?? msg.update ?? msg.data;
  if (bySymbol !== undefined && Object.keys(bySymbol).some((s) => wanted.has(s))) channels.add(msg.ch);
}
