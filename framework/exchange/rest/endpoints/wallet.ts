import { ValidationError } from '../../../model/errors.js';
import { parseWalletBalance, parseWalletBalanceList, type WalletBalance } from '../../../model/resources/balance.js';
import {
  parseBooleanResult, parseDepositAddress, parseDepositAddressList, parseIdResult, parseStringResult, parseTransaction,
  parseTransactionIdsResult, parseTransactionList, TRANSACTION_STATUSES, type BooleanResult, type DepositAddress,
  type IdResult, type Transaction, type TransactionStatus,
} from '../../../model/resources/wallet.js';
import {
  decimalParam, enumParam, limitParam, offsetParam, optionalBool, optionalBoundedText, optionalCodeList,
  optionalDateTime, optionalEnum, optionalId, optionalText, pathSegment, requiredText, SORT_DIRECTIONS,
  type CodeListInput, type DateTimeInput, type DecimalInput, type IdInput, type SortDirection,
} from '../params.js';
import type { RestExecutor } from '../rest-request.js';
import { privateCall, privateGet } from './endpoint-request.js';

/** Offchain routing of a withdrawal. */
export const OFFCHAIN_MODES = ['never', 'optionally', 'required'] as const;
export type OffchainMode = (typeof OFFCHAIN_MODES)[number];
/** Accounts a wallet transfer moves funds between. */
export const TRANSFER_ACCOUNTS = ['wallet', 'spot'] as const;
export type TransferAccount = (typeof TRANSFER_ACCOUNTS)[number];
/** How an internal withdrawal names the receiving user. */
export const INTERNAL_RECIPIENT_KINDS = ['email', 'username'] as const;
export type InternalRecipientKind = (typeof INTERNAL_RECIPIENT_KINDS)[number];
/** Sort keys of the transaction list. */
export const TRANSACTION_ORDER_KEYS = ['created_at', 'id'] as const;
export type TransactionOrderKey = (typeof TRANSACTION_ORDER_KEYS)[number];

/** The documented maximum length of a withdrawal's public comment. */
export const MAX_PUBLIC_COMMENT_LENGTH = 255;

/** `POST /wallet/crypto/withdraw`. */
export interface WithdrawParams {
  readonly currency: string;
  readonly amount: DecimalInput;
  readonly address: string;
  readonly payment_id?: string;
  /** Default false: when true the amount spent includes the fee. */
  readonly include_fee?: boolean;
  /** Default true. False makes a two-phase withdrawal: commit or roll it back within one hour. */
  readonly auto_commit?: boolean;
  readonly use_offchain?: OffchainMode;
  /** At most 255 characters. */
  readonly public_comment?: string;
}

/** `POST /wallet/convert`. */
export interface ConvertParams {
  readonly from_currency: string;
  readonly to_currency: string;
  readonly amount: DecimalInput;
}

/** `POST /wallet/transfer`: between the wallet and the spot trading account. */
export interface TransferParams {
  readonly currency: string;
  readonly amount: DecimalInput;
  readonly source: TransferAccount;
  /** Must differ from `source`. */
  readonly destination: TransferAccount;
}

/** `POST /wallet/internal/withdraw`: to another user of the exchange. */
export interface InternalWithdrawParams {
  readonly currency: string;
  readonly amount: DecimalInput;
  readonly by: InternalRecipientKind;
  /** The recipient's email or username. */
  readonly identifier: string;
}

/** `GET /wallet/transactions`. */
export interface TransactionsParams {
  /** Inclusive. */
  readonly from?: DateTimeInput;
  /** Inclusive. */
  readonly till?: DateTimeInput;
  /** DEPOSIT, WITHDRAW, TRANSFER or another type the exchange uses. */
  readonly types?: CodeListInput;
  readonly subtypes?: CodeListInput;
  readonly statuses?: TransactionStatus | readonly TransactionStatus[];
  readonly currencies?: CodeListInput;
  readonly id_from?: IdInput;
  readonly id_till?: IdInput;
  readonly tx_ids?: CodeListInput;
  /** Default created_at. */
  readonly order_by?: TransactionOrderKey;
  /** Default DESC. */
  readonly sort?: SortDirection;
  /** 1-1000, default 100. */
  readonly limit?: number;
  /** 0-100000, default 0. */
  readonly offset?: number;
}

/**
 * Wallet (document 002, Wallet): balances, deposit addresses, withdrawals (one- or two-phase),
 * conversion, transfers and transactions. Authenticated, on the `other` rate budget.
 */
export class WalletEndpoints {
  constructor(private readonly executor: RestExecutor) {}

  /** `GET /wallet/balance` (zero balances are left out). */
  async getBalances(): Promise<WalletBalance[]> {
    return this.executor.execute(privateGet('/wallet/balance', (b) => parseWalletBalanceList(b)));
  }

  /** `GET /wallet/balance/{currency}`. */
  async getBalance(currency: string): Promise<WalletBalance> {
    return this.executor.execute(privateGet(`/wallet/balance/${pathSegment('currency', currency)}`, (b) => parseWalletBalance(b)));
  }

  /** `GET /wallet/crypto/address`. */
  async getDepositAddresses(params?: { readonly currency?: string }): Promise<DepositAddress[]> {
    const query = { currency: optionalText('currency', params?.currency) };
    return this.executor.execute(privateGet('/wallet/crypto/address', (b) => parseDepositAddressList(b), query));
  }

  /**
   * `POST /wallet/crypto/address`: a new deposit address. Not idempotent: for tokens sharing a base
   * address it changes the current address of the whole base currency.
   */
  async createDepositAddress(params: { readonly currency: string }): Promise<DepositAddress> {
    const body = { currency: requiredText('currency', params.currency) };
    return this.executor.execute(privateCall('POST', '/wallet/crypto/address', (b) => parseDepositAddress(b), { scope: 'other', idempotent: false, body }));
  }

  /** `GET /wallet/crypto/address/recent-deposit`: the last 10 unique deposit addresses. */
  async getRecentDepositAddresses(params: { readonly currency: string }): Promise<DepositAddress[]> {
    const query = { currency: requiredText('currency', params.currency) };
    return this.executor.execute(privateGet('/wallet/crypto/address/recent-deposit', (b) => parseDepositAddressList(b), query));
  }

  /** `GET /wallet/crypto/address/recent-withdraw`: the last 10 unique withdrawal addresses. */
  async getRecentWithdrawAddresses(params: { readonly currency: string }): Promise<DepositAddress[]> {
    const query = { currency: requiredText('currency', params.currency) };
    return this.executor.execute(privateGet('/wallet/crypto/address/recent-withdraw', (b) => parseDepositAddressList(b), query));
  }

  /**
   * `POST /wallet/crypto/withdraw`. Never retried blindly: a repeat would send the funds twice.
   * With `auto_commit: false` the withdrawal waits for {@link commitWithdraw} or {@link rollbackWithdraw}.
   */
  async withdraw(params: WithdrawParams): Promise<IdResult> {
    const body = {
      currency: requiredText('currency', params.currency),
      amount: decimalParam('amount', params.amount, 'positive'),
      address: requiredText('address', params.address),
      payment_id: optionalText('payment_id', params.payment_id),
      include_fee: optionalBool('include_fee', params.include_fee),
      auto_commit: optionalBool('auto_commit', params.auto_commit),
      use_offchain: optionalEnum('use_offchain', params.use_offchain, OFFCHAIN_MODES),
      public_comment: optionalBoundedText('public_comment', params.public_comment, MAX_PUBLIC_COMMENT_LENGTH),
    };
    return this.executor.execute(privateCall('POST', '/wallet/crypto/withdraw', (b) => parseIdResult(b), { scope: 'other', idempotent: false, body }));
  }

  /** `PUT /wallet/crypto/withdraw/{id}`: commits a two-phase withdrawal (idempotent). */
  async commitWithdraw(id: string): Promise<BooleanResult> {
    const path = `/wallet/crypto/withdraw/${pathSegment('id', id)}`;
    return this.executor.execute(privateCall('PUT', path, (b) => parseBooleanResult(b), { scope: 'other', idempotent: true }));
  }

  /** `DELETE /wallet/crypto/withdraw/{id}`: rolls a two-phase withdrawal back (idempotent). */
  async rollbackWithdraw(id: string): Promise<BooleanResult> {
    const path = `/wallet/crypto/withdraw/${pathSegment('id', id)}`;
    return this.executor.execute(privateCall('DELETE', path, (b) => parseBooleanResult(b), { scope: 'other', idempotent: true }));
  }

  /** `POST /wallet/convert`: the identifiers of the resulting transactions. */
  async convert(params: ConvertParams): Promise<string[]> {
    const body = {
      from_currency: requiredText('from_currency', params.from_currency),
      to_currency: requiredText('to_currency', params.to_currency),
      amount: decimalParam('amount', params.amount, 'positive'),
    };
    if (body.from_currency === body.to_currency) throw new ValidationError('to_currency', 'must differ from from_currency', body.to_currency);
    return this.executor.execute(privateCall('POST', '/wallet/convert', (b) => parseTransactionIdsResult(b), { scope: 'other', idempotent: false, body }));
  }

  /** `GET /wallet/crypto/address/check-mine`: whether the address belongs to this account. */
  async checkAddressIsMine(params: { readonly address: string }): Promise<BooleanResult> {
    const query = { address: requiredText('address', params.address) };
    return this.executor.execute(privateGet('/wallet/crypto/address/check-mine', (b) => parseBooleanResult(b), query));
  }

  /** `POST /wallet/transfer`: between wallet and spot account. */
  async transfer(params: TransferParams): Promise<IdResult> {
    const body = {
      currency: requiredText('currency', params.currency),
      amount: decimalParam('amount', params.amount, 'positive'),
      source: enumParam('source', params.source, TRANSFER_ACCOUNTS),
      destination: enumParam('destination', params.destination, TRANSFER_ACCOUNTS),
    };
    if (body.source === body.destination) throw new ValidationError('destination', 'must differ from source', body.destination);
    return this.executor.execute(privateCall('POST', '/wallet/transfer', (b) => parseIdResult(b), { scope: 'other', idempotent: false, body }));
  }

  /** `POST /wallet/internal/withdraw`: the transaction id. */
  async internalWithdraw(params: InternalWithdrawParams): Promise<string> {
    const body = {
      currency: requiredText('currency', params.currency),
      amount: decimalParam('amount', params.amount, 'positive'),
      by: enumParam('by', params.by, INTERNAL_RECIPIENT_KINDS),
      identifier: requiredText('identifier', params.identifier),
    };
    return this.executor.execute(privateCall('POST', '/wallet/internal/withdraw', (b) => parseStringResult(b), { scope: 'other', idempotent: false, body }));
  }

  /** `GET /wallet/transactions`. */
  async getTransactions(params?: TransactionsParams): Promise<Transaction[]> {
    const query = {
      from: optionalDateTime('from', params?.from),
      till: optionalDateTime('till', params?.till),
      types: optionalCodeList('types', params?.types),
      subtypes: optionalCodeList('subtypes', params?.subtypes),
      statuses: statusList(params?.statuses),
      currencies: optionalCodeList('currencies', params?.currencies),
      id_from: optionalId('id_from', params?.id_from),
      id_till: optionalId('id_till', params?.id_till),
      tx_ids: optionalCodeList('tx_ids', params?.tx_ids),
      order_by: optionalEnum('order_by', params?.order_by, TRANSACTION_ORDER_KEYS),
      sort: optionalEnum('sort', params?.sort, SORT_DIRECTIONS),
      limit: limitParam(params?.limit),
      offset: offsetParam(params?.offset),
    };
    return this.executor.execute(privateGet('/wallet/transactions', (b) => parseTransactionList(b), query));
  }

  /** `GET /wallet/transactions/{tx_id}`. */
  async getTransaction(txId: IdInput): Promise<Transaction> {
    const path = `/wallet/transactions/${pathSegment('tx_id', txId)}`;
    return this.executor.execute(privateGet(path, (b) => parseTransaction(b)));
  }
}

function statusList(value: TransactionsParams['statuses']): TransactionStatus[] | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return [enumParam('statuses', value, TRANSACTION_STATUSES)];
  if (!Array.isArray(value)) throw new ValidationError('statuses', 'must be a status or an array of statuses', value);
  return value.map((status: unknown, i) => enumParam(`statuses[${i}]`, status, TRANSACTION_STATUSES));
}
