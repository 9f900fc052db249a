import { readLines } from '../../backtest/recording/recording-reader.js';
import { parseRecordingHeader, type RecordingHeader } from '../../backtest/recording/recording-format.js';

/** One recorded frame with the exchange message re-serialised as the text a socket delivers. */
export interface RecordedMessage {
  /** Local receive time (ms). */
  readonly t: number;
  readonly src: string;
  /** The exchange message as JSON text. */
  readonly text: string;
  /** The same message, parsed once at load time. */
  readonly msg: unknown;
}

/** Loads a whole recording (gzip or plain) into memory: benchmarks must not time file reads. */
export async function loadRecording(file: string): Promise<{ header: RecordingHeader; messages: RecordedMessage[] }> {
  let header: RecordingHeader | undefined;
  const messages: RecordedMessage[] = [];
  for await (const line of readLines(file)) {
    if (line.length === 0) continue;
    const value: unknown = JSON.parse(line);
    if (header === undefined) {
      header = parseRecordingHeader(value);
      continue;
    }
    const record = value as { t: number; src: string; msg: unknown };
    messages.push({ t: record.t, src: record.src, text: JSON.stringify(record.msg), msg: record.msg });
  }
  if (header === undefined) throw new Error(`${file}: empty recording`);
  return { header, messages };
}
