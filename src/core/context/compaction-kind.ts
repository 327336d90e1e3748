/**
 * Why an auto compaction happened. Only a compaction at the threshold says where the threshold
 * is; one while idle (before the prompt cache expired) or one put off past the threshold must
 * not be learned from or scored as a forecast miss (docs/claude-code.md, "What moves the real
 * trigger").
 * @module
 */

export type CompactionKind = 'threshold' | 'idle' | 'put-off' | 'manual';

/** What a transcript shows around one compact boundary. */
export type CompactionFacts = {
  trigger: 'auto' | 'manual';
  preTokens: number | null;
  /** Context of the last main-chain response before the boundary. */
  lastContextTokens: number | null;
  /** A prompt or tool result arrived between that response and the boundary; null when unknown. */
  inputSince?: boolean | null;
  /** A tool call of that response was still waiting for its result; null when unknown. */
  toolsPending?: boolean | null;
  /** ms from that response to the boundary; null when unknown. */
  gapMs?: number | null;
  /** Claude Code said it compacted while idle. */
  idleMarker?: boolean;
};

/** An idle compaction comes after the turn ended and nothing new arrived for this long. */
export const IDLE_GAP_MS = 2 * 60_000;
/** A compaction whose last response was this far past the threshold was put off. */
export const PUT_OFF_MARGIN = 0.03;

export function classifyCompaction(facts: CompactionFacts, threshold?: number): CompactionKind {
  if (facts.trigger === 'manual') return 'manual';
  if (facts.idleMarker) return 'idle';
  if (
    facts.inputSince === false &&
    facts.toolsPending === false &&
    facts.gapMs !== null &&
    facts.gapMs !== undefined &&
    facts.gapMs >= IDLE_GAP_MS
  )
    return 'idle';
  if (
    threshold !== undefined &&
    facts.lastContextTokens !== null &&
    facts.lastContextTokens > threshold * (1 + PUT_OFF_MARGIN)
  )
    return 'put-off';
  return 'threshold';
}
