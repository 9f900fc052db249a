/**
 * `tradeloop/sandbox`: a local Exchange API v3 server (REST + WebSocket, auth, rate limits, fault
 * injection) over the simulated venue, replaying a recording or a synthetic market. Point a bot's
 * `base_url` and `ws_base_url` at it to paper-trade.
 *
 * ```ts
 * const server = await SandboxServer.start({ venue: simulatedVenueFactory(), market: { kind: 'recording', path: 'btc.jsonl.gz' } });
 * console.log(server.baseUrl, server.apiKeys[0]);
 * await server.close();
 * ```
 *
 * @packageDocumentation
 */

export { SandboxServer } from './sandbox-server.js';
export {
  DEFAULT_RATE_LIMITS,
  type AccessRight,
  type MarketSource,
  type SandboxAccount,
  type SandboxApiKey,
  type SandboxOptions,
  type SandboxRateLimits,
  type VenueFactory,
} from './sandbox-config.js';
export { simulatedVenueFactory } from './simulated-venue-factory.js';
export { SYNTHETIC_SYMBOLS, syntheticMarketSource } from './synthetic-source.js';
export { parseBalanceFlags } from './balance-flags.js';
export { ConstantLatency, JitterLatency, type JitterLatencyOptions, type JitterSpec, type LatencyModel } from '../venue/matching/latency-model.js';
