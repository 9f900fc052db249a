import type { BotKernel, KernelHooks } from '../runtime/bot-kernel.js';
import type { Instrument } from '../model/instrument.js';

/**
 * Something that follows a {@link LiveBot} run besides its journal (the report folder of `paper`
 * and `live --out`): told every kernel event, given the kernel once it is built, and told when the
 * run has stopped (orders wound up, before the journal closes), whatever stopped it.
 */
export interface RunObserver extends KernelHooks {
  /** The kernel is built on `instruments`; it has not started yet. */
  attach?(kernel: BotKernel, instruments: readonly Instrument[]): void;
  /** The run has stopped; awaited before the bot closes its connections. */
  finish?(kernel: BotKernel): Promise<void> | void;
}

/** Hooks that tell `first`, then `second`, of every kernel event. */
export function bothHooks(first: KernelHooks, second: KernelHooks): KernelHooks {
  return {
    onVerdict: (verdict) => (first.onVerdict?.(verdict), second.onVerdict?.(verdict)),
    onTrack: (info) => (first.onTrack?.(info), second.onTrack?.(info)),
    onAdopt: (info) => (first.onAdopt?.(info), second.onAdopt?.(info)),
    onOrderUpdate: (update) => (first.onOrderUpdate?.(update), second.onOrderUpdate?.(update)),
    onFill: (info, fill) => (first.onFill?.(info, fill), second.onFill?.(info, fill)),
    onOrderFinished: (tracker) => (first.onOrderFinished?.(tracker), second.onOrderFinished?.(tracker)),
    onIndicator: (value) => (first.onIndicator?.(value), second.onIndicator?.(value)),
  };
}
