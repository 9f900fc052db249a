import type { Decimal } from '../model/decimal.js';
import { ValidationError } from '../model/errors.js';
import type { AccountState } from './account-state.js';
import type { VenueGateway } from './venue-gateway.js';
import type { VenuePort } from './venue-port.js';

/**
 * The reads (and the one write) of a margin or futures account's isolated accounts: each traded
 * symbol's leverage, margins and exchange position, and on futures the contracts' position
 * configurations, made the truth in the {@link AccountState}. Nothing happens on spot.
 */
export class MarginAccountReads {
  /** The read after fills: none running, one running, or one running and another wanted. */
  private state: 'idle' | 'reading' | 'again' = 'idle';

  constructor(
    private readonly venue: VenuePort,
    private readonly gateway: VenueGateway,
    private readonly account: AccountState,
    private readonly symbols: readonly string[],
  ) {}

  /** Reads the isolated accounts and the contracts' configurations now (reconciliation, stop). */
  async refresh(): Promise<void> {
    const venue = this.venue;
    const [accounts, configs] = await Promise.all([venue.marginAccounts?.(this.symbols), venue.futuresConfigs?.()]);
    if (accounts !== undefined) this.account.setMarginAccounts(accounts);
    if (configs !== undefined) this.account.setFuturesConfigs(configs);
  }

  /**
   * A fill moved a position: the isolated accounts are read again (the exchange streams no
   * positions), one read at a time through the gateway (in virtual time in a backtest); fills
   * during a read make one more read after it. A failed read is left to the next fill or
   * reconciliation.
   */
  readSoon(): void {
    if (this.state !== 'idle') {
      this.state = 'again';
      return;
    }
    this.state = 'reading';
    this.gateway.marginAccounts(this.symbols, (error, accounts) => {
      if (error === undefined && accounts !== undefined) this.account.setMarginAccounts(accounts);
      const again = this.state === 'again';
      this.state = 'idle';
      if (again) this.readSoon();
    });
  }

  /**
   * Sets each listed contract's leverage where the exchange has another, then reads the accounts
   * again. A refusal rejects: a bot must not trade at a leverage it was not given.
   */
  async applyLeverage(leverage: Readonly<Record<string, Decimal>>): Promise<void> {
    const wanted = Object.entries(leverage);
    if (wanted.length === 0) return;
    const set = this.venue.setLeverage;
    if (set === undefined) throw new ValidationError('bot.leverage', 'is for margin and futures accounts: this venue account has no leverage', this.venue.account);
    let changed = false;
    for (const [symbol, value] of wanted) {
      if (this.account.marginAccount(symbol)?.leverage.equals(value) === true) continue;
      await set.call(this.venue, symbol, value);
      changed = true;
    }
    if (changed) await this.refresh();
  }
}
