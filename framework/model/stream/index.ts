/** API v3 streaming events: market data, order reports, balances and wallet transactions. */
export * from './channel.js';
export * from './market-records.js';
export * from './market-events.js';
export * from './order-report.js';
export * from './balance-update.js';
