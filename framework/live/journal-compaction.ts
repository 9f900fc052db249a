import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fillRecord, orderRecord, type JournalRecord, type RecoveredState } from './journal-records.js';
import { toWire } from '../model/decimal.js';

/** Records written per `write(2)` while compacting (one large string per batch, not one call per line). */
const LINES_PER_WRITE = 2000;

/**
 * The records a compacted journal keeps: the counters first (today's client_order_id counter and
 * the intent numbers, which the dropped lines held), then every order not yet final with its
 * executions, and every final order that executed, with its executions and final line (positions
 * are rebuilt from executions). Final orders without executions, intents, verdicts, notes and
 * start marks are dropped: a restart needs them for nothing, and a final order needs no lookup.
 */
export function compactedRecords(state: RecoveredState, now: number): JournalRecord[] {
  const records: JournalRecord[] = [{
    k: 'counters', t: now, day: state.ids?.day, counter: state.ids?.counter, intents: Object.fromEntries(state.intents),
  }];
  for (const order of state.orders) {
    if (order.finished && order.fills.length === 0) continue;
    const info = order.info;
    records.push(orderRecord(info, now));
    for (const fill of order.fills) records.push(fillRecord(info.clientOrderId, fill, fill.time));
    const final = order.final;
    if (order.finished && final !== undefined) {
      records.push({
        k: 'final', t: now, id: info.clientOrderId, status: final.status, reason: final.reason,
        executed: final.executed === undefined ? undefined : toWire(final.executed),
      });
    }
  }
  return records;
}

/**
 * Replaces `file` by `records`, atomically: they are written to `<file>.compact`, fsynced, and
 * renamed over the journal, then the folder is fsynced so the rename itself is durable. A kill at
 * any moment leaves either the old journal or the new one, whole; a leftover temporary file is
 * overwritten by the next compaction.
 */
export function rewriteAtomically(file: string, records: readonly JournalRecord[]): void {
  const temporary = `${file}.compact`;
  const fd = openSync(temporary, 'w');
  try {
    for (let i = 0; i < records.length; i += LINES_PER_WRITE) {
      writeAll(fd, Buffer.from(records.slice(i, i + LINES_PER_WRITE).map((r) => `${JSON.stringify(r)}\n`).join(''), 'utf8'));
    }
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
  const dir = openSync(path.dirname(file), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

/** Writes every byte: `write(2)` may write fewer than asked (a full disk), and a short copy must never replace the journal. */
function writeAll(fd: number, bytes: Buffer): void {
  for (let offset = 0; offset < bytes.length;) {
    const written = writeSync(fd, bytes, offset, bytes.length - offset);
    if (written <= 0) throw new Error(`journal compaction wrote nothing at byte ${offset} of ${bytes.length}`);
    offset += written;
  }
}
