import { readFileSync } from 'node:fs';
import { findSourceMap, SourceMap, type SourceMapPayload } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Stack traces of the compiled code (`dist/`) name the TypeScript lines, read from the source maps
 * only when a trace is printed. Node's own source map support (`--enable-source-maps`) reads and
 * indexes the map of every module as it loads, which cost the command's start about 30 ms and a
 * few MiB for traces it seldom prints. Frames outside `codeDir` are mapped by the maps Node holds
 * (a loader's, such as tsx's for a TypeScript strategy); frames without a map stay as V8 writes
 * them; a trace is formatted as V8 does (`Name: message` and one `    at ...` line a
 * frame), with `path:line:column` of the source.
 */
export function mapStackTracesLazily(codeDir: string): void {
  const codeUrl = pathToFileURL(codeDir).href;
  const maps = new Map<string, SourceMap | undefined>();
  const mapOf = (file: string): SourceMap | undefined => {
    if (!maps.has(file)) maps.set(file, readSourceMap(file));
    return maps.get(file);
  };
  const frame = (site: NodeJS.CallSite): string => {
    const text = site.toString();
    const file = site.getFileName();
    const line = site.getLineNumber();
    const column = site.getColumnNumber();
    if (typeof file !== 'string' || line === null || column === null) return text;
    // Code loaded through a loader that registers its maps with Node (a TypeScript strategy through tsx).
    const map = file.startsWith(codeUrl) || file.startsWith(codeDir) ? mapOf(file) : findSourceMap(file);
    const mapped = sourcePosition(map, file, line, column);
    if (mapped === undefined) return text;
    const position = `${file}:${line}:${column}`;
    const at = text.lastIndexOf(position);
    return at < 0 ? text : `${text.slice(0, at)}${mapped}${text.slice(at + position.length)}`;
  };
  Error.prepareStackTrace = (error: Error, sites: NodeJS.CallSite[]): string => {
    let header: string;
    try {
      header = Error.prototype.toString.call(error);
    } catch {
      header = '<error>';
    }
    return header + sites.map((site) => `\n    at ${frame(site)}`).join('');
  };
}

function readSourceMap(file: string): SourceMap | undefined {
  try {
    const path = file.startsWith('file:') ? fileURLToPath(file) : file;
    return new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')) as SourceMapPayload);
  } catch {
    return undefined;
  }
}

/** `path:line:column` (1-based) of the source at a generated position, if the map has it. */
function sourcePosition(map: SourceMap | undefined, file: string, line: number, column: number): string | undefined {
  if (map === undefined) return undefined;
  const entry = map.findEntry(line - 1, column - 1) as { originalSource?: string; originalLine?: number; originalColumn?: number };
  if (entry.originalSource === undefined || entry.originalLine === undefined || entry.originalColumn === undefined) return undefined;
  const base = file.startsWith('file:') ? file : pathToFileURL(file).href;
  const source = new URL(entry.originalSource, base);
  return `${source.protocol === 'file:' ? fileURLToPath(source) : source.href}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
}
