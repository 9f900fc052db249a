import { msToIso } from '../../framework/model/resources/wire-values.js';

const FUTURES_INFO_PATH = '/api/3/public/futures/info';
/** The times inside a Futures info that move with a replay's time shift. */
const SHIFTED_TIMES = ['next_funding_time', 'timestamp'] as const;

/**
 * The body of a recorded `rest` frame's message when it is a successful futures info answer
 * (`GET /api/3/public/futures/info[/{symbol}]`, status 200), else undefined. With a time shift
 * (a recording replayed as if now) each contract's `next_funding_time` and `timestamp` move by
 * `shiftMs` as the frame's times do; other values, and a body of an unexpected shape, are kept
 * as they are (the parser downstream names what is wrong).
 */
export function recordedFuturesInfo(msg: unknown, shiftMs: number): unknown {
  if (msg === null || typeof msg !== 'object') return undefined;
  const answer = msg as { readonly path?: unknown; readonly status?: unknown; readonly body?: unknown };
  if (typeof answer.path !== 'string' || !answer.path.startsWith(FUTURES_INFO_PATH) || answer.status !== 200) return undefined;
  const body = answer.body;
  if (shiftMs === 0 || body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const out: Record<string, unknown> = {};
  for (const [symbol, info] of Object.entries(body as Record<string, unknown>)) out[symbol] = shiftInfo(info, shiftMs);
  return out;
}

function shiftInfo(info: unknown, shiftMs: number): unknown {
  if (info === null || typeof info !== 'object' || Array.isArray(info)) return info;
  const out: Record<string, unknown> = { ...(info as Record<string, unknown>) };
  for (const key of SHIFTED_TIMES) {
    const value = out[key];
    if (typeof value === 'number') out[key] = value + shiftMs;
    else if (typeof value === 'string') {
      const ms = Date.parse(value);
      if (!Number.isNaN(ms)) out[key] = msToIso(ms + shiftMs);
    }
  }
  return out;
}
