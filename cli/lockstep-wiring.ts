import type { SandboxServer } from '../backtest/sandbox/sandbox-server.js';
import { LockstepClient } from '../framework/live/lockstep-client.js';
import type { LiveBot } from '../framework/live/live-bot.js';
import type { StreamSocketHooks } from '../framework/live/live-services.js';
import { virtualSchedulers, type RuntimeSchedulers } from '../framework/runtime/runtime-ports.js';
import { VirtualClockScheduler } from '../framework/runtime/virtual-clock-scheduler.js';
import { VirtualClock, type Clock } from '../framework/time/clock.js';

/** What a lockstep paper bot is built with, and the two moments the command line must call. */
export interface LockstepWiring {
  /** The replay's market time: stands at the first frame until the sandbox moves it. */
  readonly clock: Clock;
  /** Timers and the engine's drain on that time. */
  readonly schedulers: RuntimeSchedulers;
  readonly socketHooks: StreamSocketHooks;
  /** Call before `bot.run`: once the bot trades, the control channel opens and the replay starts. */
  begin(bot: LiveBot): void;
  /** Call once the bot's stop was asked for (the end of the replay, a signal): the clock runs freely and the sandbox lets requests through. */
  release(): void;
}

/**
 * Builds a lockstep bot's clock, schedulers and socket hooks against `server` (started with
 * `lockstep: true` and `paused: true`): the bot runs on a virtual clock that only the sandbox's
 * lockstep driver advances, over the control channel (framework/live/lockstep-protocol.ts).
 */
export function lockstepWiring(server: SandboxServer): LockstepWiring {
  const driver = server.lockstep;
  if (driver === undefined) throw new Error('lockstepWiring needs a sandbox started with lockstep: true');
  const clock = new VirtualClock(driver.time);
  const scheduler = new VirtualClockScheduler(clock);
  const client = new LockstepClient(scheduler);
  return {
    clock,
    schedulers: virtualSchedulers(scheduler),
    socketHooks: {
      public: { deliver: client.deliverPublic },
      trading: { deliver: client.deliverTrading, onSent: client.onTradingSent },
    },
    begin(bot) {
      void bot.trading.then(() => {
        // Bot and sandbox share this process: the control channel needs no socket (the market and trading streams keep theirs).
        client.connectLocal((toBot) => driver.acceptLocal(toBot));
        server.play();
      });
    },
    release() {
      driver.close();
      client.release();
    },
  };
}
