import type { RecordedFrame, RecordingHeader } from '../recording/recording-format.js';
import { RecordingReader, type RecordingReaderOptions } from '../recording/recording-reader.js';

/** Reads the headers of several recordings. */
export async function readHeaders(paths: readonly string[]): Promise<RecordingHeader[]> {
  return Promise.all(paths.map((path) => new RecordingReader(path).readHeader()));
}

/**
 * The frames of several recordings as one stream ordered by local receive time `t` (what a bot
 * would have seen, in the order it would have seen it). Ties keep the order of `paths`, then file
 * order, so the merge is deterministic. Each file is streamed; memory holds one frame per file.
 */
export async function* mergeRecordings(paths: readonly string[], options: RecordingReaderOptions = {}): AsyncGenerator<RecordedFrame> {
  if (paths.length === 1) {
    yield* new RecordingReader(paths[0]!, options).frames();
    return;
  }
  const iterators = paths.map((path) => new RecordingReader(path, options).frames()[Symbol.asyncIterator]());
  const heads: (RecordedFrame | undefined)[] = await Promise.all(iterators.map(async (it) => (await it.next()).value ?? undefined));
  for (;;) {
    let pick = -1;
    for (let i = 0; i < heads.length; i++) {
      const head = heads[i];
      if (head !== undefined && (pick < 0 || head.t < heads[pick]!.t)) pick = i;
    }
    if (pick < 0) return;
    yield heads[pick]!;
    const next = await iterators[pick]!.next();
    heads[pick] = next.done === true ? undefined : next.value;
  }
}
