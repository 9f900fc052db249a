/**
 * The lockstep control channel between a paper bot and the sandbox exchange that replays its
 * market (`tradeloop paper --lockstep`). The bot keeps its real REST and WebSocket clients; this
 * channel only says when the bot's clock moves, so that the replay's market time, not the wall
 * clock, drives the bot and the sandbox's venue sees every request at the market time a backtest's
 * venue would.
 *
 * Transport: a WebSocket at {@link LOCKSTEP_PATH} on the sandbox's own port, opened only by a
 * sandbox started in lockstep mode and only from loopback; no API v3 client ever uses the path.
 * Messages are JSON text, one object each, tagged by `type`.
 *
 * sandbox -> bot, {@link AdvanceMessage}: "once you have received `public` messages on the public
 * stream and `trading` on the trading stream (counted since each connection opened), advance your
 * clock to `time`, running what is due (timers, the events queued meanwhile); then, if that sent
 * no request, go on to `then`, stopping early at your next timer's due time."
 *
 * bot -> sandbox, {@link ReadyMessage}: "idle at `time`, having sent `requests` messages on the
 * trading stream in all; my next timer is due at `nextTimer` (null: none)". The sandbox runs the
 * requests it holds (it holds each until the report that counts it has arrived, so it knows the
 * time the bot sent it at: the report's `time`), at that market time plus the entry latency,
 * and their answers at the processing time plus the response latency (the backtest's latency
 * model, in market time).
 *
 * The sandbox releases the next item (the next recorded frame, a held request, a held answer)
 * only when the bot is idle at its time with every message counted: nothing is in flight either
 * way. A frame at `t` goes out only once the bot's clock is at `t` (a quiet bot gets there in the
 * round that ends the previous instant, so a frame that makes no request costs one round trip).
 *
 * Limits: the bot trades over the trading stream (REST requests during the replay are not
 * awaited); requests and timers due at the very same millisecond run in an order the channel does
 * not fix (requests first); a reconnect restarts the stream counts and breaks the lockstep.
 */
export const LOCKSTEP_PATH = '/control/v1/lockstep';

/** sandbox -> bot: advance to `time` once the counted messages have arrived; see the module doc. */
export interface AdvanceMessage {
  readonly type: 'advance';
  readonly time: number;
  /** Where to go on to if advancing to `time` sent no request (at most the next timer's due time). */
  readonly then: number;
  /** Messages the sandbox has sent on the public stream so far. */
  readonly public: number;
  /** Messages the sandbox has sent on the trading stream so far. */
  readonly trading: number;
}

/** bot -> sandbox: idle at `time`; see the module doc. */
export interface ReadyMessage {
  readonly type: 'ready';
  readonly time: number;
  /** Messages the bot has sent on the trading stream so far. */
  readonly requests: number;
  readonly nextTimer: number | null;
}

/** bot -> sandbox, once on connecting: the bot's clock and counts before the replay starts. */
export interface HelloMessage {
  readonly type: 'hello';
  readonly time: number;
  readonly requests: number;
}

export type LockstepToBot = AdvanceMessage;
export type LockstepToSandbox = ReadyMessage | HelloMessage;
