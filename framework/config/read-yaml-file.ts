import { readFileSync } from 'node:fs';
import { isMap, isScalar, parseDocument, type Document } from 'yaml';
import { isDecimalString } from '../model/decimal.js';
import { ValidationError } from '../model/errors.js';

/**
 * Reads a YAML (or JSON, which is YAML) file into plain data. A missing file is
 * `ValidationError(field, 'no such file')`; a syntax error names the file, line and column.
 * Duplicate keys are syntax errors (YAML 1.2), so a repeated key never silently wins.
 */
export function readYamlFile(file: string, field = 'config', amountMaps: readonly (readonly string[])[] = []): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ValidationError(field, 'no such file', file);
    if (code === 'EISDIR') throw new ValidationError(field, 'is a folder, not a file', file);
    throw new ValidationError(field, `cannot be read (${code ?? 'error'})`, file);
  }
  return parseYamlText(text, file, amountMaps);
}

/**
 * Parses YAML text; `file` only names the source in errors. The numbers of the mappings at
 * `amountMaps` (key paths) come back as their source text (see {@link keepNumberSource}).
 */
export function parseYamlText(text: string, file: string, amountMaps: readonly (readonly string[])[] = []): unknown {
  const doc = parseDocument(text, { prettyErrors: false });
  const first = doc.errors[0];
  if (first !== undefined) {
    // Line and column from the error's offset (the YAML library's pretty form would also quote
    // the offending line, which in a key file may be a key).
    const before = text.slice(0, first.pos[0]).split('\n');
    const where = ` at line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
    throw new ValidationError(file, `YAML syntax error${where}: ${first.message.split('\n')[0] ?? first.code}`);
  }
  for (const path of amountMaps) keepNumberSource(doc, path);
  return doc.toJS() as unknown;
}

/**
 * Replaces the numbers of the mapping at `path` by their source text, so a YAML number such as
 * `12345678901234567890.1` reaches Decimal exactly instead of through a float. Used for amounts.
 */
export function keepNumberSource(doc: Document, path: readonly string[]): void {
  const node = doc.getIn(path, true);
  if (!isMap(node)) return;
  for (const pair of node.items) {
    const v = pair.value;
    if (isScalar(v) && typeof v.value === 'number' && typeof v.source === 'string' && isDecimalString(v.source)) {
      v.value = v.source;
    }
  }
}
