import {
  parseSubAccountAclResult, parseSubAccountAddressResult, parseSubAccountBalance, parseSubAccountListResult,
  type SubAccount, type SubAccountAcl, type SubAccountAddress, type SubAccountBalance,
} from '../../../model/resources/sub-account.js';
import { parseBooleanResult, parseStringResult, type BooleanResult } from '../../../model/resources/wallet.js';
import {
  decimalParam, enumParam, joinedCodes, optionalBool, optionalBoundedText, optionalCodeList, pathSegment, requiredText,
  type CodeListInput, type DecimalInput,
} from '../params.js';
import type { RestExecutor } from '../rest-request.js';
import { privateCall, privateGet } from './endpoint-request.js';

/** Directions of a sub-account transfer. */
export const SUB_ACCOUNT_TRANSFER_TYPES = ['to_sub_account', 'from_sub_account'] as const;
export type SubAccountTransferType = (typeof SUB_ACCOUNT_TRANSFER_TYPES)[number];

/** Upper bound on an ACL description: the spec gives none, this only catches obvious mistakes. */
export const MAX_ACL_DESCRIPTION_LENGTH = 1000;

/** Sub-accounts named by id (sent comma-separated). */
export interface SubAccountIdsParams {
  readonly sub_account_ids: CodeListInput;
}

/** `POST /sub-account/transfer`. */
export interface SubAccountTransferParams {
  readonly sub_account_id: string;
  readonly amount: DecimalInput;
  readonly currency: string;
  readonly type: SubAccountTransferType;
}

/** `POST /sub-account/acl`: withdrawal and deposit settings of sub-accounts. */
export interface SubAccountAclParams extends SubAccountIdsParams {
  readonly deposit_address_generation_enabled?: boolean;
  readonly withdraw_enabled?: boolean;
  readonly description?: string;
}

/**
 * Sub-accounts (document 002, Sub-accounts), managed from the super account. Authenticated, on the
 * `other` rate budget; sub-account ids travel as comma-separated text.
 */
export class SubAccountEndpoints {
  constructor(private readonly executor: RestExecutor) {}

  /** `GET /sub-account` (an empty array when there are none). */
  async list(): Promise<SubAccount[]> {
    return this.executor.execute(privateGet('/sub-account', (b) => parseSubAccountListResult(b)));
  }

  /** `POST /sub-account/freeze`: cancels the sub-accounts' orders and stops them trading and withdrawing. */
  async freeze(params: SubAccountIdsParams): Promise<BooleanResult> {
    const body = { sub_account_ids: joinedCodes('sub_account_ids', params.sub_account_ids) };
    return this.executor.execute(privateCall('POST', '/sub-account/freeze', (b) => parseBooleanResult(b), { scope: 'other', idempotent: false, body }));
  }

  /** `POST /sub-account/activate`: restores frozen sub-accounts (a disabled one cannot be restored). */
  async activate(params: SubAccountIdsParams): Promise<BooleanResult> {
    const body = { sub_account_ids: joinedCodes('sub_account_ids', params.sub_account_ids) };
    return this.executor.execute(privateCall('POST', '/sub-account/activate', (b) => parseBooleanResult(b), { scope: 'other', idempotent: false, body }));
  }

  /** `POST /sub-account/transfer`: the transaction id. Never retried blindly: a repeat moves funds twice. */
  async transfer(params: SubAccountTransferParams): Promise<string> {
    const body = {
      sub_account_id: requiredText('sub_account_id', params.sub_account_id),
      amount: decimalParam('amount', params.amount, 'positive'),
      currency: requiredText('currency', params.currency),
      type: enumParam('type', params.type, SUB_ACCOUNT_TRANSFER_TYPES),
    };
    return this.executor.execute(privateCall('POST', '/sub-account/transfer', (b) => parseStringResult(b), { scope: 'other', idempotent: false, body }));
  }

  /** `GET /sub-account/acl`. */
  async getAcl(params?: Partial<SubAccountIdsParams>): Promise<SubAccountAcl[]> {
    const query = { sub_account_ids: optionalCodeList('sub_account_ids', params?.sub_account_ids) };
    return this.executor.execute(privateGet('/sub-account/acl', (b) => parseSubAccountAclResult(b), query));
  }

  /** `POST /sub-account/acl`: sets absolute values, so a repeat changes nothing more. */
  async setAcl(params: SubAccountAclParams): Promise<SubAccountAcl[]> {
    const body = {
      sub_account_ids: joinedCodes('sub_account_ids', params.sub_account_ids),
      deposit_address_generation_enabled: optionalBool('deposit_address_generation_enabled', params.deposit_address_generation_enabled),
      withdraw_enabled: optionalBool('withdraw_enabled', params.withdraw_enabled),
      description: optionalBoundedText('description', params.description, MAX_ACL_DESCRIPTION_LENGTH),
    };
    return this.executor.execute(privateCall('POST', '/sub-account/acl', (b) => parseSubAccountAclResult(b), { scope: 'other', idempotent: true, body }));
  }

  /** `GET /sub-account/balance/{sub_acc_id}`. */
  async getBalance(subAccountId: string): Promise<SubAccountBalance> {
    const path = `/sub-account/balance/${pathSegment('sub_acc_id', subAccountId)}`;
    return this.executor.execute(privateGet(path, (b) => parseSubAccountBalance(b)));
  }

  /** `GET /sub-account/crypto/address/{sub_acc_id}/{currency}`. */
  async getDepositAddress(subAccountId: string, currency: string): Promise<SubAccountAddress> {
    const path = `/sub-account/crypto/address/${pathSegment('sub_acc_id', subAccountId)}/${pathSegment('currency', currency)}`;
    return this.executor.execute(privateGet(path, (b) => parseSubAccountAddressResult(b)));
  }
}
