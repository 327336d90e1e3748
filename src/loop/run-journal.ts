/**
 * Everything a loop run writes about itself, in one place: events (the run's append-only log,
 * indexed in SQLite, redacted), the run row and its saved state. Writes never stop the loop: a
 * failed write is logged and the run goes on.
 * @module
 */
import { redactTextSync } from '../redact/redact.ts';
import type { Store } from '../app/open-store.ts';
import { appendLog } from '../store/home/log.ts';
import type { Loops } from '../store/ports/loops.ts';
import type { LoopIterationRecord, LoopRunRecord } from '../store/ports/loops.ts';
import { RunEventLog, type LoopEvent, type LoopEventName } from '../store/loop/loop-event-log.ts';
import { describeEvent } from './describe-event.ts';
import type { LoopState } from './loop-state.ts';

export type LoopResult = {
  run: LoopRunRecord;
  iterations: LoopIterationRecord[];
  /** 0 completed, 1 stopped or failed, 130 interrupted. */
  exitCode: number;
};

export class RunJournal {
  readonly repo: Loops;
  readonly #home: string;
  readonly #now: () => number;
  readonly #onEvent: ((event: LoopEvent) => void) | undefined;
  readonly #log: RunEventLog;
  #run: LoopRunRecord;

  constructor(
    deps: {
      store: Pick<Store, 'loops'>;
      home: string;
      now: () => number;
      onEvent?: (event: LoopEvent) => void;
    },
    run: LoopRunRecord,
  ) {
    this.repo = deps.store.loops;
    this.#home = deps.home;
    this.#now = deps.now;
    this.#onEvent = deps.onEvent;
    this.#run = run;
    this.#log = RunEventLog.open(deps.home, run.runId, this.repo);
  }

  get run(): LoopRunRecord {
    return this.#run;
  }

  get runId(): string {
    return this.#run.runId;
  }

  iso(): string {
    return new Date(this.#now()).toISOString();
  }

  close(): void {
    this.#log.close();
  }

  emit(name: LoopEventName, data: Record<string, unknown>, iteration: number | null = null): void {
    let event: LoopEvent;
    try {
      event = this.#log.append(name, name === 'loop.context_usage' ? data : redactStrings(data), {
        iteration,
        correlationId: iteration === null ? this.runId : `${this.runId}/${iteration}`,
      });
    } catch (error) {
      appendLog(this.#home, 'error', 'loop: could not write an event', {
        run: this.runId,
        name,
        error: String(error),
      });
      return;
    }
    // Context readings have their own columns; one row write per response is enough.
    if (name !== 'loop.context_usage') this.saveRun({ lastEvent: describeEvent(event) });
    try {
      this.#onEvent?.(event);
    } catch {
      // progress output must not stop the loop
    }
  }

  saveRun(patch: Partial<LoopRunRecord>): void {
    this.#run = { ...this.#run, ...patch };
    try {
      this.repo.updateRun(this.runId, patch);
    } catch (error) {
      appendLog(this.#home, 'error', 'loop: could not update the run', {
        run: this.runId,
        error: String(error),
      });
    }
  }

  /** The run row's context columns, kept in memory too, written without an event. */
  saveContext(tokens: number, percent: number): void {
    this.#run = { ...this.#run, contextTokens: tokens, contextPercent: percent };
    this.repo.updateRun(this.runId, { contextTokens: tokens, contextPercent: percent });
  }

  saveState(state: LoopState): void {
    this.saveRun({ state });
  }

  result(exitCode: number): LoopResult {
    return {
      run: this.repo.getRun(this.runId) ?? this.#run,
      iterations: this.repo.getIterations(this.runId),
      exitCode,
    };
  }
}

/** Tool inputs, errors and answers can carry secrets; nothing is written unredacted. */
function redactStrings(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    out[key] = typeof value === 'string' ? redactTextSync(value).text : value;
  }
  return out;
}
