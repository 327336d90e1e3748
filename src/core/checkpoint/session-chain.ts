/**
 * Sessions that continue one another, as one chain: a restore links the session a checkpoint was
 * taken in to the session it was restored into (a crash resume, a handoff, a loop restart, a
 * session of another agent); a compaction restore links a session to its own continuation. The
 * chain runs back from a session through the restores that started it and on through the first
 * restore of each session's checkpoints into a later one.
 * @module
 */

export type RestoreLink = {
  checkpointId: string;
  fromSession: string | null;
  intoSession: string;
  restoredAt: string;
  reason: string;
};

/** One stretch of a session in the chain: its start, or its continuation after a compaction. */
export type ChainStep = {
  sessionId: string;
  /** 1 for the session's start, 2 after its first compaction restore, … */
  part: number;
  /** How this step was reached from the one before it; null for the first. */
  via: RestoreLink | null;
};

/** No chain is drawn longer than this (a loop running for days restarts many times). */
export const MAX_CHAIN_STEPS = 200;

const byTime = (a: RestoreLink, b: RestoreLink) => a.restoredAt.localeCompare(b.restoredAt);

/** The chain `sessionId` belongs to, oldest step first. */
export function traceSessionChain(sessionId: string, links: readonly RestoreLink[]): ChainStep[] {
  const into = new Map<string, RestoreLink[]>();
  const from = new Map<string, RestoreLink[]>();
  for (const link of [...links].sort(byTime)) {
    if (link.fromSession === null) continue;
    into.set(link.intoSession, [...(into.get(link.intoSession) ?? []), link]);
    from.set(link.fromSession, [...(from.get(link.fromSession) ?? []), link]);
  }
  const crossing = (l: RestoreLink) => l.fromSession !== l.intoSession;
  // Back to the first session: the earliest restore from another session that started each one
  // (a restore that started a session comes before any of its checkpoints was restored elsewhere).
  const sessions = [sessionId];
  const entries: Array<RestoreLink | null> = [null];
  const seen = new Set(sessions);
  for (let s = sessionId; sessions.length < MAX_CHAIN_STEPS;) {
    const firstOut = (from.get(s) ?? []).find(crossing)?.restoredAt ?? null;
    const start = (into.get(s) ?? []).find(
      (l) =>
        crossing(l) && !seen.has(l.fromSession!) && (firstOut === null || l.restoredAt <= firstOut),
    );
    if (!start) break;
    s = start.fromSession!;
    seen.add(s);
    sessions.unshift(s);
    entries[0] = start;
    entries.unshift(null);
  }
  // On to the last: the earliest restore of each session's checkpoints into a later session.
  for (let s = sessionId; sessions.length < MAX_CHAIN_STEPS;) {
    const next = (from.get(s) ?? []).find((l) => crossing(l) && !seen.has(l.intoSession));
    if (!next) break;
    s = next.intoSession;
    seen.add(s);
    sessions.push(s);
    entries.push(next);
  }
  const steps: ChainStep[] = [];
  sessions.forEach((s, i) => {
    steps.push({ sessionId: s, part: 1, via: entries[i] ?? null });
    const leaving = entries[i + 1]?.restoredAt ?? null;
    let part = 1;
    for (const l of into.get(s) ?? []) {
      if (l.fromSession !== s || steps.length >= MAX_CHAIN_STEPS) continue;
      if (leaving !== null && l.restoredAt > leaving) continue;
      steps.push({ sessionId: s, part: ++part, via: l });
    }
  });
  return steps;
}
