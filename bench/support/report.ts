/** A row of a printed figures table. */
export type Row = Record<string, string | number>;

/** Prints rows as an aligned text table (console.table quotes strings and adds an index column). */
export function printTable(title: string, rows: readonly Row[]): void {
  console.log(`\n${title}`);
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0] as Row);
  const cells = rows.map((row) => columns.map((c) => format(row[c])));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => (r[i] as string).length)));
  const line = (values: readonly string[]): string =>
    values.map((v, i) => (i === 0 ? v.padEnd(widths[i] as number) : v.padStart(widths[i] as number))).join('  ');
  console.log(line(columns));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of cells) console.log(line(row));
}

function format(value: string | number | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  return value >= 100 ? value.toFixed(0) : value >= 1 ? value.toFixed(2) : value.toFixed(3);
}
