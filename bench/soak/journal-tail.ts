import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** A journal record as written (JSON object per line). */
export type JournalRecord = Readonly<Record<string, unknown>>;

/**
 * Reads a bot's JSON-lines journal as it grows, from where the last read stopped: a long soak
 * must not re-read megabytes every poll. A line without its newline yet is kept for the next
 * read; a complete line that is not JSON (cut by a kill, then continued by the next life) is
 * counted, not thrown.
 *
 * A life that starts compacts the journal: the file is replaced (a new file renamed over it) by a
 * snapshot of what a restart needs, followed by the life's `start` record. The tail then reads the
 * new file from its beginning, leaving out the snapshot's records it already has (the same order,
 * execution or final line), so the records stay the union of every life's, each once.
 */
export class JournalTail {
  private offset = 0;
  private rest = '';
  private inode: number | undefined;
  /** Reading a compacted file's snapshot (up to its `start` record). */
  private replaying = false;
  private readonly known = new Set<string>();
  /** Every record read so far, in file order. */
  readonly records: JournalRecord[] = [];
  /** Complete lines that were not JSON objects, with their text. */
  readonly unreadable: string[] = [];

  constructor(readonly file: string) {}

  /** Reads what was appended since the last call; returns the new records. */
  poll(): JournalRecord[] {
    let fd: number;
    try {
      fd = openSync(this.file, 'r');
    } catch {
      return [];
    }
    const fresh: JournalRecord[] = [];
    try {
      const stat = fstatSync(fd);
      if (this.inode !== undefined && (stat.ino !== this.inode || stat.size < this.offset)) {
        this.offset = 0;
        this.rest = '';
        this.replaying = true;
      }
      this.inode = stat.ino;
      const size = stat.size;
      if (size <= this.offset) return fresh;
      const buffer = Buffer.alloc(size - this.offset);
      const read = readSync(fd, buffer, 0, buffer.length, this.offset);
      this.offset += read;
      const lines = (this.rest + buffer.toString('utf8', 0, read)).split('\n');
      this.rest = lines.pop() ?? '';
      for (const line of lines) {
        if (line.length === 0) continue;
        try {
          const record = JSON.parse(line) as unknown;
          if (record === null || typeof record !== 'object' || Array.isArray(record)) throw new Error('not an object');
          if (this.take(record as JournalRecord)) fresh.push(record as JournalRecord);
        } catch {
          this.unreadable.push(line);
        }
      }
    } finally {
      closeSync(fd);
    }
    this.records.push(...fresh);
    return fresh;
  }

  /** False for a compacted snapshot's copy of a record already read. */
  private take(record: JournalRecord): boolean {
    if (record['k'] === 'start') this.replaying = false;
    const key = identity(record);
    if (key === undefined) return true;
    if (this.replaying && this.known.has(key)) return false;
    this.known.add(key);
    return true;
  }
}

/** What makes an order, execution or final line the same line again; undefined for the others. */
function identity(record: JournalRecord): string | undefined {
  const kind = record['k'];
  if (kind === 'order' || kind === 'final') return `${String(kind)}:${String(record['id'])}`;
  if (kind === 'fill') return `fill:${String(record['id'])}:${String(record['trade'])}`;
  return undefined;
}
