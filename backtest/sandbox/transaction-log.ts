import { msToIso } from '../../framework/model/resources/wire-values.js';
import type { AccountId, TransferRequest } from '../venue/venue-types.js';

/** A wallet transaction in its wire shape (`GET /wallet/transactions`, `transaction_update`). */
export type WireTransaction = Readonly<Record<string, unknown>>;

/**
 * The wallet transactions the sandbox knows of: transfers between wallet and spot, which complete
 * at once (SUCCESS). Listeners receive each new one (the `transaction_update` notifications).
 */
export class TransactionLog {
  private readonly byAccount = new Map<AccountId, WireTransaction[]>();
  private readonly listeners = new Set<(account: AccountId, tx: WireTransaction) => void>();
  private nextId = 1;

  /** Records a completed transfer; returns the transaction. */
  recordTransfer(account: AccountId, transferId: string, request: TransferRequest, at: number): WireTransaction {
    const time = msToIso(at);
    const tx: WireTransaction = {
      id: this.nextId++,
      status: 'SUCCESS',
      type: 'TRANSFER',
      subtype: request.source === 'wallet' ? 'TO_SPOT' : 'FROM_SPOT',
      created_at: time,
      updated_at: time,
      native: { tx_id: transferId, index: this.nextId, currency: request.currency, amount: request.amount },
    };
    const list = this.byAccount.get(account) ?? [];
    list.push(tx);
    this.byAccount.set(account, list);
    for (const listener of this.listeners) listener(account, tx);
    return tx;
  }

  /** The account's transactions, newest first. */
  list(account: AccountId): WireTransaction[] {
    return [...(this.byAccount.get(account) ?? [])].reverse();
  }

  /** Registers a listener for new transactions; returns the unsubscribe function. */
  onTransaction(listener: (account: AccountId, tx: WireTransaction) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
