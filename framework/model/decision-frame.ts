/**
 * The market frame a strategy had last been shown when it made a decision: the frame whose
 * handler ran, or, for a decision made on a timer or a report, the latest frame before it. An
 * order carries the frame of the decision that made it, so a fill can be traced back to the
 * market state the bot acted on, and two runs of one strategy (backtest, paper, live) can tell
 * whether they decided on the same frame.
 */
export interface DecisionFrame {
  /** Symbol of the frame. */
  readonly symbol: string;
  /** Local receive time of the frame, UNIX ms (the replay clock's time in a backtest). */
  readonly receivedAt: number;
  /** Exchange time of the frame, UNIX ms, when the frame carried one. */
  readonly exchangeTime?: number;
  /** The book frame's sequence `s`; absent for trades, ticker and candle frames. */
  readonly sequence?: number;
  /** How many market frames the strategy had been shown, this one included (1 for the first). */
  readonly index: number;
}
