import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** A journal record as written (JSON object per line). */
export type JournalRecord = Readonly<Record<string, unknown>>;

/**
 * Reads a bot's JSON-lines journal as it grows, from where the last read stopped: a long soak
 * must not re-read megabytes every poll. A line without its newline yet is kept for the next
 * read; a complete line that is not JSON (cut by a kill, then continued by the next life) is
 * counted, not thrown.
 */
export class JournalTail {
  private offset = 0;
  private rest = '';
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
      const size = fstatSync(fd).size;
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
          fresh.push(record as JournalRecord);
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
}
