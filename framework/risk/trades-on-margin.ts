import type { Instrument } from '../model/instrument.js';
import type { RiskView } from './risk-state.js';

/**
 * True when orders on `instrument` trade a position on margin rather than spot funds: a futures
 * contract, or a pair with margin trading whose isolated margin account the exchange reported (the
 * account state holds isolated accounts only when the bot trades a margin account, so a spot bot
 * on the same pair stays on spot). Such orders need margin (notional / leverage + fees in the quote
 * currency), never the spot market-buy reserve, and close positions reduce-only.
 */
export function tradesOnMargin(instrument: Instrument, view: Pick<RiskView, 'leverage'>): boolean {
  const info = instrument.info;
  return info.type === 'futures' || (info.margin_trading && view.leverage(instrument.symbol) !== undefined);
}
