/**
 * Turns what the monitor read in the agent's stream into the run's record: the session id, the
 * context readings, tool calls, API errors and compactions become events and row updates.
 *
 * Events read from the stream carry the byte offset of their line. A resumed supervisor re-reads
 * lines past the last saved offset; what it had already logged from them is skipped, so a kill -9
 * neither loses nor repeats an event.
 * @module
 */
import { truncate } from '../core/truncate.ts';
import type { LoopIterationRecord } from '../store/ports/loops.ts';
import type { LoopEventName } from '../store/loop/loop-event-log.ts';
import type { IterationMonitor, MonitorSignal } from './iteration-monitor.ts';
import type { RunJournal } from './run-journal.ts';

export class StreamRecorder {
  readonly #journal: RunJournal;
  readonly #record: LoopIterationRecord;
  readonly #monitor: IterationMonitor;
  /** `name@offset` of stream events a killed supervisor had logged past its saved offset. */
  readonly #alreadyLogged: Set<string>;

  constructor(
    journal: RunJournal,
    record: LoopIterationRecord,
    monitor: IterationMonitor,
    options: { alreadyLogged?: Set<string> },
  ) {
    this.#journal = journal;
    this.#record = record;
    this.#monitor = monitor;
    this.#alreadyLogged = options.alreadyLogged ?? new Set();
  }

  #emit(endOffset: number, name: LoopEventName, data: Record<string, unknown>): void {
    if (this.#alreadyLogged.delete(`${name}@${endOffset}`)) return;
    this.#journal.emit(name, { ...data, line: endOffset }, this.#record.number);
  }

  record(signal: MonitorSignal, endOffset: number): void {
    const journal = this.#journal;
    const number = this.#record.number;
    switch (signal.kind) {
      // What a line tells (its events, the run's row) is written before the offset past it is
      // saved: a supervisor killed in between re-reads the line and skips what it had logged; the
      // other way round, it would skip the line and what it told would be lost (the run's
      // session, which --resume continues).
      case 'session':
        this.#emit(endOffset, 'loop.agent_session', {
          sessionId: signal.sessionId,
          model: signal.model,
          cliVersion: signal.cliVersion,
        });
        if (this.#record.sessionId !== signal.sessionId) {
          journal.saveRun({ sessionId: signal.sessionId });
          this.#record.sessionId = signal.sessionId;
          journal.repo.updateIteration(journal.runId, number, {
            sessionId: signal.sessionId,
            streamOffset: endOffset,
          });
        }
        return;
      case 'context': {
        const stats = this.#monitor.stats;
        this.#emit(endOffset, 'loop.context_usage', {
          tokens: signal.tokens,
          percent: signal.percent,
          compactThreshold: this.#monitor.threshold?.compactThreshold ?? null,
          thresholdPercent: this.#monitor.restartPercent,
        });
        if (signal.crossed)
          this.#emit(endOffset, 'loop.context_exhaustion_warning', {
            tokens: signal.tokens,
            percent: signal.percent,
            thresholdPercent: this.#monitor.restartPercent,
            action: 'ending the iteration at the next safe point',
          });
        journal.saveContext(signal.tokens, signal.percent);
        journal.repo.updateIteration(journal.runId, number, {
          streamOffset: endOffset,
          responses: stats.responses,
          toolCalls: stats.toolCalls,
          lastContextTokens: signal.tokens,
          peakContextTokens: stats.peakContextTokens,
          peakPercent: stats.peakPercent,
        });
        return;
      }
      case 'tool_call':
        this.#emit(endOffset, 'loop.tool_call', {
          name: signal.name,
          input: truncate(JSON.stringify(signal.input), 200),
        });
        return;
      case 'api_error':
        this.#emit(endOffset, 'loop.agent_error', {
          text: truncate(signal.text, 500),
          status: signal.status,
          limit: signal.limit,
          resetsAt: signal.resetsAt,
        });
        return;
      case 'compaction':
        this.#emit(endOffset, 'loop.compaction', {
          trigger: signal.trigger,
          preTokens: signal.preTokens,
        });
        return;
      case 'tool_error':
      case 'result':
      case 'safe_point':
        return;
    }
  }
}
