/**
 * The lockstep control channel between a paper bot and the sandbox exchange that replays its
 * market (`tradeloop paper --lockstep`). The bot keeps its real REST and WebSocket clients; this
 * channel only says when the bot's clock moves and which of the messages it received belong to
 * which market time, so that the replay's market time, not the wall clock, drives the bot and the
 * sandbox's venue sees every request at the market time a backtest's venue would.
 *
 * Transport: messages are JSON text, one object each, tagged by `type`. A bot in the sandbox's
 * process (`tradeloop paper --lockstep`) hands them over directly, each in a microtask of its own
 * (LockstepDriver.acceptLocal, LockstepClient.connectLocal): a round then costs one write per
 * stream socket that carries something. Any other bot uses a WebSocket at {@link LOCKSTEP_PATH} on
 * the sandbox's own port, open only on a sandbox started in lockstep mode and only from loopback;
 * no API v3 client ever uses the path.
 *
 * A round. The bot is idle at its time with nothing in flight either way. The sandbox releases
 * the items of one window, in market order: recorded frames (one step each) and held work (the
 * requests, answers and reports the latency model put at a later time; everything due at one
 * time is one step). It writes their messages on the public and trading streams (one write per
 * socket and turn), then an {@link AdvanceMessage} listing the steps, each with its time and the
 * stream counts its messages end at.
 *
 * The window. Nothing the bot sends at market time `s` reaches the venue before
 * `s + minimum entry latency` (the latency model's bound), nor comes back earlier still. So once
 * the first item of a round at `a` is due, every item before `min(a + minimum entry latency, the
 * bot's next timer)` can go at once: whatever the bot does on the way cannot change them. With a
 * minimum of 0 a round is one step.
 *
 * The bot, for each step in order: waits for the step's counts to have arrived (messages beyond
 * them wait too), advances its clock to the step's time (timers due by then fire first), hands
 * on the step's messages, lets them be handled (their promise continuations included) and runs
 * what is due (the strategy on the frame; its requests go out). After the last step, if the round
 * sent no request, it goes on to `then`, stopping early at its next timer's due time. It then
 * answers {@link ReadyMessage}: its time, its request count, its next timer, and for every
 * request of the round the market time it was sent at and the step it followed.
 *
 * The sandbox runs each held request (it holds each until the report that counts it arrives) at
 * the time it was sent, in the place among the held work it would have had if the round had
 * stopped right after its step, at that time plus the entry latency; its answer comes at the
 * processing time plus the response latency (the backtest's latency model, in market time).
 *
 * Limits: the bot trades over the trading stream (REST requests during the replay are not
 * awaited); requests and timers due at the very same millisecond run in an order the channel does
 * not fix (requests first); a reconnect restarts the stream counts and breaks the lockstep.
 */
export const LOCKSTEP_PATH = '/control/v1/lockstep';

/** One step of a round: `[time, public, trading]`, the messages the sandbox had sent on each stream at its end. */
export type AdvanceStep = readonly [time: number, publicCount: number, tradingCount: number];

/** sandbox -> bot: the steps of a round; see the module doc. */
export interface AdvanceMessage {
  readonly type: 'advance';
  /** At least one step, in market order; counts are since each connection opened. */
  readonly steps: readonly AdvanceStep[];
  /** Where to go on to if the round sent no request (at most the next timer's due time). */
  readonly then: number;
}

/** bot -> sandbox: idle at `time`; see the module doc. */
export interface ReadyMessage {
  readonly type: 'ready';
  readonly time: number;
  /** Messages the bot has sent on the trading stream so far. */
  readonly requests: number;
  readonly nextTimer: number | null;
  /**
   * The requests of this round, in order, as pairs: the market time each was sent at and the index
   * of the last step whose messages had been handed on then (-1: before the first).
   */
  readonly sent: readonly number[];
}

/** bot -> sandbox, once on connecting: the bot's clock, counts and next timer before the replay starts. */
export interface HelloMessage {
  readonly type: 'hello';
  readonly time: number;
  readonly requests: number;
  readonly nextTimer: number | null;
}

export type LockstepToBot = AdvanceMessage;
export type LockstepToSandbox = ReadyMessage | HelloMessage;
