import { ParseError } from '../../framework/model/errors.js';
import { parseSymbolInfo, type SymbolInfo } from '../../framework/model/resources/symbol.js';
import { asObject, optString, reqInt, reqString } from '../../framework/model/wire.js';

/** Where a recorded frame came from (recording-format.md). */
export const RECORDING_SOURCES = ['ws/public', 'ws/trading', 'ws/wallet', 'rest'] as const;
export type RecordingSource = (typeof RECORDING_SOURCES)[number];

/** Line 1 of a recording. */
export interface RecordingHeader {
  readonly format: 'tradeloop.recording';
  readonly version: 1;
  readonly venue: string;
  /** Symbols in the API v3 Symbol shape; empty when the recorder did not know them. */
  readonly symbols: Readonly<Record<string, SymbolInfo>>;
  readonly note?: string;
}

/** Every later line: a frame exactly as the exchange sent it, with the local receive time. */
export interface RecordedFrame {
  /** Local receive time, UNIX ms (may carry a fraction). */
  readonly t: number;
  readonly src: RecordingSource;
  readonly msg: unknown;
}

/** Validates a header line (already JSON-parsed). Unknown fields are ignored for forward compatibility. */
export function parseRecordingHeader(value: unknown): RecordingHeader {
  const o = asObject(value, 'header');
  if (o.format !== 'tradeloop.recording') throw new ParseError('header.format', 'must be "tradeloop.recording"', o.format);
  const version = reqInt(o, 'version', 'header');
  if (version !== 1) throw new ParseError('header.version', 'must be 1 (the only version this reader knows)', version);
  const symbolsRaw = o.symbols == null ? {} : asObject(o.symbols, 'header.symbols');
  const symbols: Record<string, SymbolInfo> = {};
  for (const [code, info] of Object.entries(symbolsRaw)) symbols[code] = parseSymbolInfo(info, `header.symbols.${code}`);
  return { format: 'tradeloop.recording', version: 1, venue: reqString(o, 'venue', 'header'), symbols, note: optString(o, 'note', 'header') };
}

/**
 * Validates a frame line (already JSON-parsed). Cheap on purpose: it runs once per recorded event.
 * `line` is the 1-based line number, for error messages.
 */
export function parseRecordedFrame(value: unknown, line: number): RecordedFrame {
  if (value === null || typeof value !== 'object') throw new ParseError(`line ${line}`, 'must be a JSON object', value);
  const { t, src, msg } = value as { t?: unknown; src?: unknown; msg?: unknown };
  if (typeof t !== 'number' || !Number.isFinite(t)) throw new ParseError(`line ${line}.t`, 'must be a number (UNIX ms)', t);
  if (src !== 'ws/public' && src !== 'ws/trading' && src !== 'ws/wallet' && src !== 'rest') {
    throw new ParseError(`line ${line}.src`, `must be one of ${RECORDING_SOURCES.join(', ')}`, src);
  }
  if (msg === null || typeof msg !== 'object') throw new ParseError(`line ${line}.msg`, 'must be a JSON object', msg);
  return value as RecordedFrame;
}
