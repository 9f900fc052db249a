/** A log entry after redaction, as the line formatters see it. */
export interface LogRecord {
  /** ISO 8601 time, UTC. */
  readonly timestamp: string;
  readonly level: string;
  readonly message: string;
  /** Structured fields (the runtime's `fields`, or meta passed to winston directly). */
  readonly [key: string]: unknown;
}

/** One JSON line: timestamp, level, message first, then the rest in their order. */
export function formatJsonLine(record: LogRecord): string {
  const { timestamp, level, message, ...rest } = record;
  return JSON.stringify({ timestamp, level, message, ...rest });
}

const COLORS: Readonly<Record<string, string>> = { error: '\x1b[31m', warn: '\x1b[33m', info: '\x1b[32m', debug: '\x1b[90m' };
const DIM = '\x1b[2m';
const RESET = '\x1b[0m';

/**
 * One readable line, `HH:MM:SS.mmm INFO  message key=value ...`: the time is UTC, like the
 * exchange's timestamps; `fields` are spread into key=value pairs, other meta follows; texts with
 * spaces or quotes are JSON-quoted so the line stays one line and splits unambiguously.
 */
export function formatPrettyLine(record: LogRecord, colors = false): string {
  const { timestamp, level, message, fields, ...rest } = record;
  const pairs = [...entriesOf(fields), ...Object.entries(rest)].map(([k, v]) => {
    const key = renderValue(k);
    return colors ? `${DIM}${key}=${RESET}${renderValue(v)}` : `${key}=${renderValue(v)}`;
  });
  const time = timestamp.length >= 23 ? timestamp.slice(11, 23) : timestamp;
  const tag = level.toUpperCase().padEnd(5);
  const head = colors ? `${DIM}${time}${RESET} ${COLORS[level] ?? ''}${tag}${RESET}` : `${time} ${tag}`;
  return [head, oneLine(message), ...pairs].join(' ');
}

function entriesOf(fields: unknown): [string, unknown][] {
  if (fields === undefined) return [];
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return [['fields', fields]];
  return Object.entries(fields);
}

// Control characters (newlines, terminal escapes from a payload) are shown escaped, never sent raw.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

function oneLine(text: string): string {
  return CONTROL.test(text) ? JSON.stringify(text) : text;
}

/** key=value rendering of one field value. */
export function renderValue(v: unknown): string {
  if (typeof v === 'string') return v !== '' && /^[^\s"'=\\]+$/.test(v) && !CONTROL.test(v) ? v : JSON.stringify(v);
  if (v === undefined || v === null || typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (isErrorRecord(v)) return JSON.stringify(`${v.name}: ${v.message}`);
  return JSON.stringify(v) ?? String(v);
}

// Errors reach the formatters already turned into plain records by the redaction step.
function isErrorRecord(v: unknown): v is { name: string; message: string } {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o['name'] === 'string' && typeof o['message'] === 'string' && typeof o['stack'] === 'string';
}
