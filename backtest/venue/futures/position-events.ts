import { ZERO } from '../../../framework/model/decimal.js';
import type { VenueEvent } from '../venue-types.js';
import { futuresBalances, marginBalances, positionView } from './futures-views.js';
import type { PositionBook } from './position-book.js';

/**
 * Emits one event per account whose balances or positions in `book` changed since the last call:
 * `futures` events carry the futures balances of the changed margin currencies, `margin` events
 * the margin balances (totals per currency) of the changed isolated accounts' currencies; both the
 * changed positions, a closed one as `{symbol, quantity: 0}`. Accounts in sorted order.
 */
export function emitPositionChanges(book: PositionBook, emit: (event: VenueEvent) => void): void {
  const accounts = book.accounts;
  const { balances, positions } = accounts.takeChanges();
  if (balances.size === 0 && positions.size === 0) return;
  const changed = new Set([...balances.keys(), ...positions.keys()]);
  for (const account of [...changed].sort()) {
    const pockets = balances.get(account) ?? [];
    const views = (positions.get(account) ?? []).map((symbol) => {
      const open = accounts.position(account, symbol);
      return open === undefined ? { symbol, quantity: ZERO } : positionView(accounts, open, account);
    });
    if (book.name === 'futures') {
      emit({ kind: 'futures', account, balances: futuresBalances(accounts, account, pockets), positions: views });
    } else {
      const currencies = [...new Set(pockets.map((pocket) => accounts.pocketCurrency(pocket)))].sort();
      emit({ kind: 'margin', account, balances: marginBalances(accounts, account, currencies), positions: views });
    }
  }
}
