/**
 * Canned API v3 answers shaped as the exchange sends them: decimals as strings, ids as numbers
 * (futures trade ids as strings), times as ISO 8601, nanosecond times as digit strings.
 */

export const T1 = '2021-06-20T20:22:39.658Z';
export const T1_MS = Date.parse(T1);

export const network = {
  network: 'ETH', protocol: 'ERC20', default: true, payin_enabled: true, payout_enabled: true,
  precision_payout: '0.000000000000000001', payout_fee: '0.004', payout_is_payment_id: false, payin_payment_id: false,
  payin_confirmations: 20, address_regex: '^0x[a-fA-F0-9]{40}$', low_processing_time: '10.35', high_processing_time: '1400.2',
};

export const currency = {
  full_name: 'Ethereum', crypto: true, payin_enabled: true, payout_enabled: true, transfer_enabled: true,
  precision_transfer: '0.000000000001', networks: [network],
};

export const symbol = {
  type: 'spot', base_currency: 'ETH', quote_currency: 'BTC', status: 'working', quantity_increment: '0.001',
  tick_size: '0.000001', take_rate: '0.001', make_rate: '-0.0001', fee_currency: 'BTC', margin_trading: true,
  max_initial_leverage: '10.00',
};

export const mapping = {
  core_symbol_id: 9, core_symbol: 'ETHBTC', core_base_currency: 'ETH', core_quote_currency: 'BTC',
  core_fee_currency: 'BTC', quantity_increment: '0.001', tick_size: '0.000001',
};

export const ticker = {
  ask: '0.050043', bid: '0.050042', last: '0.050042', open: '0.047800', low: '0.047052', high: '0.051679',
  volume: '36456.720', volume_quote: '1782.625000', timestamp: T1,
};

export const priceRate = { currency: 'BTC', price: '0.050042', timestamp: T1 };
export const lastPrice = { price: '0.050042', timestamp: T1 };
export const priceHistory = {
  currency: 'BTC', history: [{ timestamp: T1, open: '0.0478', close: '0.0500', min: '0.0470', max: '0.0516' }],
};

export const publicTrade = { id: 1175851866285, price: '0.050042', qty: '0.125', side: 'buy', timestamp: T1 };

export const orderBook = {
  timestamp: '2021-07-01T13:23:53.021283478Z',
  ask: [['0.046002', '0.0723'], ['0.046003', '1.024']],
  bid: [['0.046001', '0.005'], ['0.046000', '2.5']],
};

export const candle = {
  timestamp: T1, open: '0.047800', close: '0.050042', min: '0.047052', max: '0.051679', volume: '36456.720',
  volume_quote: '1782.625000',
};

export const futuresInfo = {
  contract_type: 'perpetual', mark_price: '42307.43', index_price: '42303.27', funding_rate: '0.0001',
  open_interest: '30.9826', next_funding_time: '2022-03-22T16:00:00.000Z', indicative_funding_rate: '0.0001',
  premium_index: '0', avg_premium_index: '0.000029587712038098', interest_rate: '0.0001', timestamp: T1,
};

export const funding = {
  timestamp: T1, funding_rate: '0.0001', avg_premium_index: '0.000061858304860056', interest_rate: '0.0001',
  next_funding_time: '2022-03-22T16:00:00.000Z',
};

export const openInterest = { timestamp: T1, open_interest: '30.9826', value: '1310786.12' };

export const order = {
  id: 840450210, client_order_id: 'c1837634ef81472a9cd13c81e7b91401', symbol: 'ETHBTC', side: 'buy', status: 'new',
  type: 'limit', time_in_force: 'GTC', quantity: '0.002', quantity_cumulative: '0', price: '0.046001',
  post_only: false, created_at: T1, updated_at: T1,
};

/** An order with the given client id (and list fields). */
export function orderWith(fields: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return { ...order, ...fields };
}

export const tradeHistory = {
  id: 9535486, order_id: 816088377, client_order_id: 'f8dbaab336d44d5ba3ff578098a68454', symbol: 'ETHBTC',
  side: 'sell', quantity: '0.061', price: '0.045487', fee: '0.000002775', timestamp: T1, taker: true,
};

export const futuresTradeHistory = {
  ...tradeHistory, id: '1175851866285', order_id: '58818484771', symbol: 'BTCUSDT_PERP', position_id: 485308,
  pnl: '0.21', liquidation: false,
};

export const tradingBalance = { currency: 'ETH', available: '10.000000000', reserved: '0.56', reserved_margin: '0' };
export const fee = { symbol: 'ETHBTC', take_rate: '0.001', make_rate: '-0.0001' };

export const position = {
  id: 485308, symbol: 'BTCUSDT_PERP', quantity: '-0.0102', price_entry: '42155.8', price_margin_call: '45790.5',
  price_liquidation: '48112.2', pnl: '-2.26', created_at: T1, updated_at: T1,
};

export const marginAccount = {
  symbol: 'BTCUSDT_PERP', type: 'isolated', leverage: '10.00', created_at: T1, updated_at: T1,
  currencies: [{ code: 'USDT', margin_balance: '43.18', reserved_orders: '0', reserved_positions: '43.18' }],
  positions: [position],
};

export const positionHistory = {
  id: 485308, symbol: 'BTCUSDT_PERP', margin_mode: 'isolated', state: 'closed', quantity: '0', entry_value: '429.96',
  entry_price: '42155.8', leverage: '10.00', pnl: '0.42', margin_call: false,
  create_timestamp: '1647945621000000000', update_timestamp: '1647945922123456789',
};

export const clearing = {
  timestamp: '1647950400000000000', position_id: 485308, position_quantity: '-0.0102', type: 'funding',
  symbol: 'BTCUSDT_PERP', currency: 'USDT', amount: '-0.0043', rate: '0.0001',
};

export const futuresConfig = {
  config: [{
    symbol: 'BTCUSDT_PERP', margin_call_leverage_mul: '1.50', liquidation_leverage_mul: '2.00', max_initial_leverage: '100.00',
    margin_mode: 'Isolated', force_close_fee: '0.001', enabled: true, active: true, limit_base: '5000000.000',
    limit_power: '1.25', unlimited_threshold: '2.00',
  }],
};

export const walletBalance = { currency: 'USDT', available: '100.00', reserved: '0' };
export const depositAddress = { currency: 'XRP', address: 'rLs6vJaQ9WgSW2KYmWRt8bmZ9EUfKxQ6Cr', payment_id: '1234' };

export const transaction = {
  id: 3333, status: 'SUCCESS', type: 'WITHDRAW', subtype: 'BLOCKCHAIN', created_at: T1, updated_at: T1,
  native: {
    tx_id: '0ed9a5a9-4f27-4d5e-8ba7-3c4e8b8d9c2e', index: 1, currency: 'ETH', amount: '0.5', fee: '0.004',
    address: '0x4b2ab1f6a9f5de7d2d42fef6a2f0dd0e7be2c8b4', hash: '0x2e5ca0e0', confirmations: 20,
  },
};

export const subAccounts = { result: [{ sub_account_id: '6f1b0f4e1a2b', email: 'bot@example.com', status: 'active' }] };
export const subAccountAcl = {
  result: [{
    sub_account_id: '6f1b0f4e1a2b', deposit_address_generation_enabled: true, withdraw_enabled: false, description: '',
    created_at: T1, updated_at: T1,
  }],
};
export const subAccountBalance = {
  result: { wallet: [{ currency: 'BTC', available: '0.1', reserved: '0' }], spot: [{ currency: 'USDT', available: '5', reserved: '1' }] },
};
export const subAccountAddress = { result: { address: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh' } };

export const provider = {
  provider_id: 2, provider_name: 'Card provider',
  methods: [{
    id: 7, name: 'Visa', description: 'Card', method_type: 'CREDIT_CARD', logo_url: 'https://example.com/l.png',
    status: 'active', type: 'card', supported_source: [{ code: 'USD', display_name: 'US Dollar' }],
    supported_target: [{ code: 'BTC', display_name: 'Bitcoin' }],
    transaction_limits: [{ currency_code: 'USD', target_code: 'BTC', source_min: '20', source_max: '20000' }],
  }],
};

export const buyRate = {
  spot_price: '42000.5',
  prices: [{ payment_method_id: 7, type: 'card', target_code: 'BTC', source_code: 'USD', target_amount: '0.0023', source_amount: '100' }],
};

export const buyOrder = {
  id: 'a1b2', provider_id: 2, order_type: 'buy', source_code: 'USD', target_code: 'BTC',
  wallet_address: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh', checkout_url: 'https://example.com/checkout',
  status: 'initial', created_at: T1,
};
