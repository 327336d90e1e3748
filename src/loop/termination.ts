/**
 * The one way the supervisor stopped an agent, recorded once. The timeout, the threshold and the
 * safe point all race to stop the same process; the first sets the reason, the others find it
 * set and do nothing, and how the iteration ended is derived from that single reason
 * (core/loop/iteration-end.ts).
 * @module
 */
import type { TerminationReason } from '../core/loop/iteration-end.ts';
import { stopAgent } from './agent-run.ts';

export class Termination {
  readonly #pid: number;
  readonly #startTime: string | null;
  #reason: TerminationReason = null;
  #stopping: Promise<void> | null = null;

  constructor(pid: number, startTime: string | null) {
    this.#pid = pid;
    this.#startTime = startTime;
  }

  get reason(): TerminationReason {
    return this.#reason;
  }

  /** Stops the agent for `reason`, unless it is already being stopped (or there is none). */
  request(reason: Exclude<TerminationReason, null>): void {
    if (this.#stopping || this.#pid <= 0) return;
    this.#reason = reason;
    this.#stopping = stopAgent(this.#pid, this.#startTime);
  }

  /** Resolves once a requested stop has taken effect. */
  async settled(): Promise<void> {
    await this.#stopping;
  }
}
