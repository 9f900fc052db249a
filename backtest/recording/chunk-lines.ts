const NEWLINE = 0x0a;

/**
 * Hands `take` every complete line of `chunk` (`bytes[start, end)`, without its `\n`), the first
 * one joined to `rest`, the unfinished last line of the chunks before; returns the unfinished last
 * line of this one (undefined when the chunk ends with a `\n`). Only a line cut by a chunk boundary
 * is copied, never a whole chunk.
 */
export function takeLines(rest: Buffer | undefined, chunk: Buffer, take: (bytes: Buffer, start: number, end: number) => void): Buffer | undefined {
  let start = 0;
  let nl = chunk.indexOf(NEWLINE);
  if (rest !== undefined) {
    if (nl < 0) return Buffer.concat([rest, chunk]);
    const line = Buffer.concat([rest, chunk.subarray(0, nl)]);
    take(line, 0, line.length);
    start = nl + 1;
    nl = chunk.indexOf(NEWLINE, start);
  }
  while (nl >= 0) {
    take(chunk, start, nl);
    start = nl + 1;
    nl = chunk.indexOf(NEWLINE, start);
  }
  return start < chunk.length ? chunk.subarray(start) : undefined;
}
