import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { RestClient } from '../../framework/exchange/rest/rest-client.js';
import { RestTransport } from '../../framework/exchange/rest/rest-transport.js';
import { RetryPolicy } from '../../framework/exchange/rest/retry-policy.js';
import { RecordingReader } from '../../backtest/recording/recording-reader.js';
import { SandboxServer } from '../../backtest/sandbox/sandbox-server.js';
import { simulatedVenueFactory } from '../../backtest/sandbox/simulated-venue-factory.js';

const PERP_SAMPLE = fileURLToPath(new URL('../../backtest/samples/synthetic-btc-perp.v3.jsonl.gz', import.meta.url));

let server: SandboxServer | undefined;
let transport: RestTransport | undefined;

afterEach(async () => {
  await transport?.close();
  await server?.close();
  server = transport = undefined;
});

describe('sandbox replaying a recording with futures info answers', () => {
  it('serves the last recorded futures info and the funding its answers show, over the recording\'s own file', async () => {
    // The oracle, read from the file: the recorded answers in order.
    const answers: { t: number; info: Record<string, string> }[] = [];
    for await (const frame of new RecordingReader(PERP_SAMPLE).frames()) {
      if (frame.src === 'rest') answers.push({ t: frame.t, info: (frame.msg as { body: Record<string, Record<string, string>> }).body.BTCUSDT_PERP! });
    }
    const last = answers[answers.length - 1]!;
    const fundings = answers.slice(1).filter((a, i) => a.info.next_funding_time !== answers[i]!.info.next_funding_time);

    server = await SandboxServer.start({ venue: simulatedVenueFactory(), market: { kind: 'recording', path: PERP_SAMPLE }, speed: Infinity, paused: true });
    transport = new RestTransport({ baseUrl: server.baseUrl, retryPolicy: new RetryPolicy({ maxAttempts: 1 }) });
    const rest = new RestClient(transport);
    server.play();
    await server.done;
    const info = await rest.marketData.getFuturesInfo('BTCUSDT_PERP');
    expect([info.mark_price, info.index_price, info.funding_rate, info.open_interest, info.next_funding_time])
      .toEqual([last.info.mark_price, last.info.index_price, last.info.funding_rate, last.info.open_interest, Date.parse(last.info.next_funding_time!)]);
    expect(fundings.length).toBe(1);
    const history = await rest.marketData.getFundingHistory({ symbols: ['BTCUSDT_PERP'] });
    const before = answers[answers.indexOf(fundings[0]!) - 1]!.info;
    expect(history.BTCUSDT_PERP?.map((r) => [r.timestamp, r.funding_rate, r.next_funding_time]))
      .toEqual([[Date.parse(before.next_funding_time!), before.funding_rate, Date.parse(fundings[0]!.info.next_funding_time!)]]);
    expect(server.frameErrors).toBe(0);
  }, 60_000);
});
