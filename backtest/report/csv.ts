/** Line break of every CSV file written: CRLF, as RFC 4180 specifies. */
export const CSV_EOL = '\r\n';

/**
 * One CSV field per RFC 4180: quoted when it contains a comma, a double quote, CR or LF (or starts
 * or ends with a space, which some readers trim), with inner quotes doubled; left bare otherwise.
 */
export function csvField(value: string): string {
  return /[",\r\n]|^ | $/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A whole CSV document: header line, then one line per row, every line ended by CRLF. */
export function toCsv(headers: readonly string[], rows: Iterable<readonly string[]>): string {
  const lines = [headers.map(csvField).join(',')];
  for (const row of rows) lines.push(row.map(csvField).join(','));
  return lines.join(CSV_EOL) + CSV_EOL;
}
