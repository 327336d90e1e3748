/**
 * Each session's crash-risk signals as sampled at its checkpoints (bounded per session).
 * store/checkpoints/signal-history-repository.ts implements it.
 * @module
 */

export type SignalSample = {
  sessionId: string;
  recordedAt: string;
  signals: unknown;
  crashRisk: string;
};

export interface SignalHistory {
  record(sample: SignalSample): void;
  countBySession(sessionId: string): number;
  /** crash_risk → samples, over the given sessions (all when omitted). */
  countByRisk(sessionIds?: readonly string[]): Record<string, number>;
}
