import {
  parseBuyCryptoOrder, parseBuyCryptoOrderList, parseBuyCryptoProviderList, parseBuyCryptoRate, type BuyCryptoOrder,
  type BuyCryptoProvider, type BuyCryptoRate,
} from '../../../model/resources/buy-crypto.js';
import {
  decimalParam, idParam, limitParam, offsetParam, optionalDecimal, optionalId, optionalText, pathSegment, requiredText,
  type DecimalInput, type IdInput,
} from '../params.js';
import type { RestExecutor } from '../rest-request.js';
import { privateCall, privateGet } from './endpoint-request.js';

/** `GET /buy-crypto/provider`: every filter optional. */
export interface ProvidersParams {
  readonly provider_id?: IdInput;
  /** Fiat currency code. */
  readonly source?: string;
  /** Crypto currency code. */
  readonly target?: string;
}

/** `GET /buy-crypto/provider/{provider_id}/rate`. */
export interface BuyCryptoRateParams {
  readonly source: string;
  readonly target: string;
  readonly source_amount?: DecimalInput;
  readonly target_amount?: DecimalInput;
  readonly payment_method_id?: IdInput;
}

/** `GET /buy-crypto/provider/{provider_id}/order`. */
export interface BuyCryptoOrdersParams {
  /** UNIX time of order creation, as the spec types it (Number). */
  readonly from?: IdInput;
  readonly till?: IdInput;
  readonly limit?: number;
  readonly offset?: number;
  readonly source_code?: string;
  readonly target_code?: string;
  readonly wallet_address?: string;
}

/** `POST /buy-crypto/provider/{provider_id}/order`. */
export interface BuyCryptoOrderParams {
  readonly target: string;
  readonly source: string;
  readonly source_amount: DecimalInput;
  readonly target_amount?: DecimalInput;
  readonly payment_method_id: IdInput;
}

/** Buying crypto through external providers (document 002, Buy crypto). Authenticated, `other` budget. */
export class BuyCryptoEndpoints {
  constructor(private readonly executor: RestExecutor) {}

  /** `GET /buy-crypto/provider`. */
  async getProviders(params?: ProvidersParams): Promise<BuyCryptoProvider[]> {
    const query = {
      provider_id: optionalId('provider_id', params?.provider_id),
      source: optionalText('source', params?.source),
      target: optionalText('target', params?.target),
    };
    return this.executor.execute(privateGet('/buy-crypto/provider', (b) => parseBuyCryptoProviderList(b), query));
  }

  /** `GET /buy-crypto/provider/{provider_id}/rate`. */
  async getRate(providerId: IdInput, params: BuyCryptoRateParams): Promise<BuyCryptoRate> {
    const query = {
      source: requiredText('source', params.source),
      target: requiredText('target', params.target),
      source_amount: optionalDecimal('source_amount', params.source_amount, 'positive'),
      target_amount: optionalDecimal('target_amount', params.target_amount, 'positive'),
      payment_method_id: optionalId('payment_method_id', params.payment_method_id),
    };
    return this.executor.execute(privateGet(`${providerPath(providerId)}/rate`, (b) => parseBuyCryptoRate(b), query));
  }

  /** `GET /buy-crypto/provider/{provider_id}/order`. */
  async getOrders(providerId: IdInput, params?: BuyCryptoOrdersParams): Promise<BuyCryptoOrder[]> {
    const query = {
      from: optionalId('from', params?.from),
      till: optionalId('till', params?.till),
      limit: limitParam(params?.limit),
      offset: offsetParam(params?.offset),
      source_code: optionalText('source_code', params?.source_code),
      target_code: optionalText('target_code', params?.target_code),
      wallet_address: optionalText('wallet_address', params?.wallet_address),
    };
    return this.executor.execute(privateGet(`${providerPath(providerId)}/order`, (b) => parseBuyCryptoOrderList(b), query));
  }

  /** `POST /buy-crypto/provider/{provider_id}/order` (JSON body). Not idempotent: a repeat opens a second order. */
  async createOrder(providerId: IdInput, params: BuyCryptoOrderParams): Promise<BuyCryptoOrder> {
    const paymentMethodId = idParam('payment_method_id', params.payment_method_id);
    const body = {
      target: requiredText('target', params.target),
      source: requiredText('source', params.source),
      source_amount: decimalParam('source_amount', params.source_amount, 'positive'),
      target_amount: optionalDecimal('target_amount', params.target_amount, 'positive'),
      // The spec types payment_method_id as Number: a JSON number, unless it would lose digits.
      payment_method_id: Number.isSafeInteger(Number(paymentMethodId)) ? Number(paymentMethodId) : paymentMethodId,
    };
    const path = `${providerPath(providerId)}/order`;
    return this.executor.execute(privateCall('POST', path, (b) => parseBuyCryptoOrder(b), { scope: 'other', idempotent: false, body }));
  }
}

function providerPath(providerId: IdInput): string {
  return `/buy-crypto/provider/${pathSegment('provider_id', idParam('provider_id', providerId))}`;
}
