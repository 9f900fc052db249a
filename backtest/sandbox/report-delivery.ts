import type { WebSocket } from 'ws';
import type { FaultInjector } from './fault-injector.js';
import { send } from './ws-protocol.js';

/**
 * Sends order-report frames, through the configured faults: a fixed delay, a share duplicated, a
 * share held back and sent after the next report (a swap). Without faults a report goes out at once.
 */
export class ReportDelivery {
  private held: { socket: WebSocket; text: string } | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly faults: FaultInjector) {}

  /** Sends (or schedules) one report frame to `socket`. */
  deliver(socket: WebSocket, frame: unknown): void {
    const text = JSON.stringify(frame);
    const { orderReportDelayMs, duplicateReportProbability, reorderReportProbability } = this.faults.options;
    if (this.held === undefined && this.faults.chance('report-reorder', reorderReportProbability)) {
      this.held = { socket, text };
      return;
    }
    const copies = this.faults.chance('report-duplicate', duplicateReportProbability) ? 2 : 1;
    const out = () => {
      for (let i = 0; i < copies; i++) send(socket, text);
      const held = this.held;
      this.held = undefined;
      if (held) send(held.socket, held.text);
    };
    if (orderReportDelayMs === undefined) {
      out();
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      out();
    }, orderReportDelayMs);
    this.timers.add(timer);
  }

  /** Cancels pending deliveries. */
  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.held = undefined;
  }
}
