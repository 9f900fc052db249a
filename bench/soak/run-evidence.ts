import { readFileSync } from 'node:fs';
import type { JournalRecord } from './journal-tail.js';

/** Error-level messages of the bot's JSON-lines log, each with its first fields and time, and its count. */
export function botErrors(logFile: string): Map<string, number> {
  const counts = new Map<string, number>();
  let text = '';
  try {
    text = readFileSync(logFile, 'utf8');
  } catch {
    return counts;
  }
  for (const line of text.split('\n')) {
    if (!line.includes('"level":"error"')) continue;
    let key = '(unreadable log line)';
    try {
      const entry = JSON.parse(line) as { timestamp?: unknown; message?: unknown; fields?: unknown };
      // The first time and fields of each message are the evidence; later repeats are counted.
      key = `${String(entry.message)} ${JSON.stringify(entry.fields ?? {}).slice(0, 400)} (first at ${String(entry.timestamp)})`;
      const seen = [...counts.keys()].find((k) => k.startsWith(`${String(entry.message)} `));
      if (seen !== undefined) key = seen;
    } catch {
      // counted under the unreadable key
    }
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** The first lines of a stderr text, on one line. */
export function firstLines(text: string | undefined): string {
  return (text ?? '').split('\n').map((l) => l.trim()).filter((l) => l.length > 0).slice(0, 3).join(' | ').slice(0, 400);
}

/** The journal records one life of pid `pid` wrote: from its `start` to the next `start`. */
export function recordsOf(pid: number | undefined, records: readonly JournalRecord[]): JournalRecord[] {
  const from = records.findIndex((r) => r['k'] === 'start' && r['pid'] === pid);
  if (from < 0) return [];
  const to = records.findIndex((r, i) => i > from && r['k'] === 'start');
  return records.slice(from, to < 0 ? undefined : to);
}
