import { ParseError } from '../../framework/model/errors.js';

/**
 * Parses RFC 4180 text (the CSV files a report writes: CRLF or LF line ends, quoted fields with
 * doubled quotes, line breaks inside quotes) into rows of fields. `file` names the text in errors.
 */
export function parseCsv(text: string, file: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n') line++;
        field += c;
      }
    } else if (c === '"' && field.length === 0) quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      line++;
    } else field += c;
  }
  if (quoted) throw new ParseError(`${file}:${line}`, 'has a quoted field that never ends');
  if (field.length > 0 || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/**
 * The rows of a CSV document as records by column name, after checking that the header holds every
 * one of `required` (other columns are kept; a row with a different number of fields is refused).
 */
export function csvRecords(text: string, file: string, required: readonly string[]): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text, file);
  if (header === undefined) throw new ParseError(file, 'is empty: no header line');
  const missing = required.filter((c) => !header.includes(c));
  if (missing.length > 0) throw new ParseError(`${file}:1`, `lacks the column(s) ${missing.join(', ')}`);
  return rows.map((cells, index) => {
    if (cells.length !== header.length) throw new ParseError(`${file}:${index + 2}`, `must have ${header.length} fields`, cells.length);
    const record: Record<string, string> = {};
    header.forEach((name, i) => (record[name] = cells[i]!));
    return record;
  });
}
