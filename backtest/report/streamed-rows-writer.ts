import { appendFileSync, createReadStream, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { EquityPoint, FillRecord, OrderRecord, StreamedRows } from './backtest-result.js';
import { CSV_EOL, csvField } from './csv.js';
import { equityColumns, FILL_COLUMNS, fillCells, iso, ORDER_COLUMNS, orderCells, positionCells } from './report-files.js';
import { RowDigest } from './row-digest.js';
import type { MetricsOptions } from './metrics.js';
import { RunningMetrics, type RunTotals } from './running-metrics.js';
import { equityText } from './scaled-equity.js';

/** Bytes of CSV text gathered before they are appended to their file. */
const FLUSH_BYTES = 1 << 16;

/**
 * One CSV file written a line at a time: lines gather in a small buffer appended to the file
 * synchronously when full, so memory stays bounded whether or not the event loop turns (a replay
 * may run long without yielding), and no descriptor stays open between writes. The buffer holds
 * bytes, not text: a line's string dies as soon as it is encoded, where a string of a thousand
 * gathered lines outlived young-generation collections and was promoted, to be collected in full
 * ones (a candle run writes a line per candle).
 */
class CsvFile {
  private readonly bytes = Buffer.allocUnsafe(FLUSH_BYTES);
  private used = 0;

  constructor(readonly path: string, columns: readonly string[]) {
    writeFileSync(path, line(columns), 'utf8');
  }

  write(cells: readonly string[]): void {
    this.append(line(cells));
  }

  /** A line of cells that never need quoting (times, ISO times, decimals): joined as they are. */
  writePlain(cells: readonly string[]): void {
    this.append(cells.join(','));
    this.append(CSV_EOL);
  }

  flush(): void {
    if (this.used === 0) return;
    appendFileSync(this.path, this.bytes.subarray(0, this.used));
    this.used = 0;
  }

  private append(text: string): void {
    // A UTF-16 unit takes at most 3 bytes of UTF-8.
    if (this.used + 3 * text.length > this.bytes.length) {
      this.flush();
      if (3 * text.length > this.bytes.length) {
        appendFileSync(this.path, text, 'utf8');
        return;
      }
    }
    this.used += this.bytes.write(text, this.used, 'utf8');
  }
}

function line(cells: readonly string[]): string {
  return cells.map(csvField).join(',') + CSV_EOL;
}

/** An order still to be written, with its place in creation order. */
export interface PlacedOrder {
  readonly index: number;
  readonly record: OrderRecord;
}

/**
 * Writes a run's fills.csv, orders.csv and equity.csv into `dir` as the run goes, with the bytes
 * `writeReport` writes for the same rows, and keeps only what the report needs of them: the
 * {@link RunningMetrics} figures and a {@link RowDigest}. Memory does not grow with the rows,
 * except for orders that ended while an older one is still live: orders.csv lists orders in
 * creation order, so those wait for it.
 *
 * equity.csv starts with a position column for each of `symbols`; the report has one only for
 * symbols some sample held, so when a symbol never traded the file is rewritten without its
 * column at the end (one pass, line by line).
 */
export class StreamedRowsWriter {
  readonly digest: RowDigest;
  private readonly metrics: RunningMetrics;
  private readonly fills: CsvFile;
  private readonly orders: CsvFile;
  private readonly equity: CsvFile;
  private readonly symbols: readonly string[];
  private ordersWritten = 0;
  private lastPositions: EquityPoint['positions'] | undefined;
  private lastPositionCells: readonly string[] = [];
  private nextOrder = 0;
  /** Orders that ended before an older one did, by creation index (null: ended unlisted). */
  private readonly waiting = new Map<number, OrderRecord | null>();

  constructor(readonly dir: string, private readonly quoteCurrency: string, symbols: readonly string[], metricsOptions: MetricsOptions = {}) {
    this.symbols = [...symbols].sort();
    this.digest = new RowDigest(symbols);
    this.metrics = new RunningMetrics(quoteCurrency, metricsOptions);
    mkdirSync(dir, { recursive: true });
    this.fills = new CsvFile(join(dir, 'fills.csv'), FILL_COLUMNS);
    this.orders = new CsvFile(join(dir, 'orders.csv'), ORDER_COLUMNS);
    this.equity = new CsvFile(join(dir, 'equity.csv'), equityColumns(quoteCurrency, this.symbols));
  }

  /** A fill, after every earlier one. */
  fill(fill: FillRecord): void {
    this.metrics.addFill(fill);
    this.digest.addFill(fill);
    this.fills.write(fillCells(fill));
  }

  /** An equity sample, at or after every earlier one. */
  sample(point: EquityPoint): void {
    // Samples share their positions record until a fill: its cells are written out once per record.
    if (point.positions !== this.lastPositions) {
      this.lastPositions = point.positions;
      this.lastPositionCells = positionCells(point.positions, this.symbols);
    }
    const text = equityText(point);
    this.metrics.addEquity(point, text);
    this.digest.addEquity(point);
    this.equity.writePlain([String(point.time), iso(point.time), text, ...this.lastPositionCells]);
  }

  /**
   * The order created `index`-th (from 0) ended with `record`, or unlisted (undefined: it never
   * reached the venue). An order the run did not create (no index) is written at once.
   */
  orderEnded(index: number | undefined, record: OrderRecord | undefined): void {
    if (index === undefined) {
      if (record !== undefined) this.writeOrder(record);
      return;
    }
    if (index < this.nextOrder) return;
    if (index > this.nextOrder) {
      this.waiting.set(index, record ?? null);
      return;
    }
    // The oldest order still open ended: it goes out, with those that ended while it was open.
    this.nextOrder++;
    if (record !== undefined) this.writeOrder(record);
    if (this.waiting.size === 0) return;
    for (let next = this.waiting.get(this.nextOrder); next !== undefined; next = this.waiting.get(this.nextOrder)) {
      this.waiting.delete(this.nextOrder);
      this.nextOrder++;
      if (next !== null) this.writeOrder(next);
    }
  }

  /** Appends the rows gathered so far to their files (a long-lived run's files then follow it closely). */
  flush(): void {
    for (const file of [this.fills, this.orders, this.equity]) file.flush();
  }

  /**
   * Writes the orders still live at the end (with those waiting for them, in creation order),
   * closes the files and returns what the report needs.
   */
  async finish(live: readonly PlacedOrder[], totals: Omit<RunTotals, 'orders'>): Promise<StreamedRows> {
    const rest = [...live.filter((o) => o.index >= this.nextOrder && !this.waiting.has(o.index))];
    for (const [index, record] of this.waiting) if (record !== null) rest.push({ index, record });
    this.waiting.clear();
    for (const { record } of rest.sort((a, b) => a.index - b.index)) this.writeOrder(record);
    for (const file of [this.fills, this.orders, this.equity]) file.flush();
    const held = this.digest.heldSymbols().sort();
    if (held.length !== this.symbols.length) await this.dropPositionColumns(held);
    return {
      dir: this.dir,
      files: [this.fills.path, this.orders.path, this.equity.path],
      metrics: this.metrics.finish({ ...totals, orders: this.ordersWritten }),
      digest: this.digest,
    };
  }

  private writeOrder(record: OrderRecord): void {
    this.ordersWritten++;
    this.digest.addOrder(record);
    this.orders.write(orderCells(record));
  }

  /** Rewrites equity.csv with position columns for `held` only (data cells never need quoting). */
  private async dropPositionColumns(held: readonly string[]): Promise<void> {
    const kept = [0, 1, 2, ...held.map((s) => 3 + this.symbols.indexOf(s))];
    const path = this.equity.path;
    const temporary = `${path}.part`;
    const out = new CsvFile(temporary, equityColumns(this.quoteCurrency, held));
    let header = true;
    for await (const text of createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity })) {
      if (header) {
        header = false;
        continue;
      }
      if (text.length === 0) continue;
      const cells = text.split(',');
      out.writePlain(kept.map((i) => cells[i]!));
    }
    out.flush();
    renameSync(temporary, path);
  }
}
