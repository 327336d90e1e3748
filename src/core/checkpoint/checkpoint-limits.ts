/**
 * The checkpoint model's size limits (docs/specification.md, "The checkpoint model"), enforced by
 * truncation (the newest items win where lists are cut) and checked by validation.
 * @module
 */
import { AGENT_IDS, isAgentId } from '../agent-id.ts';
import { formatTokens } from '../format-tokens.ts';
import { clip, clipStart, truncate } from '../truncate.ts';
import { CHECKPOINT_TRIGGERS, type CheckpointDraft } from './checkpoint.ts';

/** The specified limits, plus bounds on the lists the specification left open. */
export const CHECKPOINT_LIMITS = {
  summaryChars: 1000,
  keyDecisions: 50,
  decisionChars: 300,
  currentContextChars: 500,
  recentMessages: 10,
  messageChars: 1000,
  userRequests: 300,
  /** Every request whole up to this; a longer one keeps its head and tail. */
  userRequestChars: 1500,
  requestTailChars: 400,
  completedSteps: 100,
  nextSteps: 20,
  blockers: 10,
  stepChars: 300,
  taskItems: 100,
  files: 200,
  diffBytes: 10 * 1024,
  recentToolCalls: 20,
  toolTextChars: 500,
  pendingOperations: 50,
  activeSessions: 20,
  commands: 10,
  commandChars: 1000,
  failureChars: 800,
  customInstructionsChars: 2000,
  recentPreferencesChars: 2000,
} as const;

const L = CHECKPOINT_LIMITS;

function limitList(items: readonly string[], max: number, chars: number): string[] {
  return items.slice(-max).map((s) => truncate(s, chars));
}

/** What a request's kept form says where its middle was left out (and how much). */
export const REQUEST_CUT = /\n\[… ([\d,]+) characters of this request left out here …\]\n/;

/**
 * A request in at most about `chars` characters: whole when it fits; else its head and its tail
 * (where a request usually says what it wants done), with the cut said between them. A request
 * cut before is cut again around its first cut. Cut between tokens, so no half secret is left
 * for redaction to miss.
 */
export function cutRequest(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const cut = REQUEST_CUT.exec(text);
  const before = cut ? text.slice(0, cut.index) : text;
  const after = cut ? text.slice(cut.index + cut[0].length) : text;
  const leftBefore = cut ? Number(cut[1]!.replace(/,/g, '')) : 0;
  const tailChars = Math.min(L.requestTailChars, Math.floor(chars * 0.3));
  const head = clip(before, Math.max(1, chars - tailChars - 60) + 1).replace(/…$/, '');
  const tail = clipStart(after, tailChars);
  const left = cut
    ? leftBefore + (before.length - head.length) + (after.length - tail.length)
    : text.length - head.length - tail.length;
  return `${head}\n[… ${formatTokens(left)} characters of this request left out here …]\n${tail}`;
}

/** A request as a checkpoint keeps it: whole up to 1,500 characters, else its head and tail. */
export function keepRequest(text: string): string {
  return cutRequest(text, L.userRequestChars);
}

/**
 * Every request survives, each kept by {@link keepRequest}: past the count limit the
 * second-oldest go (the first says what the work is for).
 */
export function limitRequests(requests: readonly string[]): string[] {
  const kept =
    requests.length <= L.userRequests
      ? [...requests]
      : [requests[0]!, ...requests.slice(requests.length - (L.userRequests - 1))];
  return kept.map(keepRequest);
}

/** Cuts a string to at most `bytes` UTF-8 bytes (marker included), on a character boundary. */
export function truncateBytes(text: string, bytes: number): string {
  const encoded = new TextEncoder().encode(text);
  if (encoded.length <= bytes) return text;
  const marker = '\n… (truncated)';
  const budget = bytes - new TextEncoder().encode(marker).length;
  if (budget <= 0) return '';
  let end = budget;
  // Back up over UTF-8 continuation bytes (10xxxxxx) so no character is split.
  while (end > 0 && (encoded[end]! & 0xc0) === 0x80) end--;
  return new TextDecoder().decode(encoded.subarray(0, end)) + marker;
}

/** Returns a copy of `checkpoint` within every limit (the newest items win where lists are cut). */
export function applyCheckpointLimits<T extends CheckpointDraft>(checkpoint: T): T {
  const c = checkpoint;
  return {
    ...c,
    conversationState: {
      summary: truncate(c.conversationState.summary, L.summaryChars),
      keyDecisions: limitList(c.conversationState.keyDecisions, L.keyDecisions, L.decisionChars),
      currentContext: truncate(c.conversationState.currentContext, L.currentContextChars),
      recentMessages: c.conversationState.recentMessages
        .slice(-L.recentMessages)
        .map((m) => ({ ...m, content: truncate(m.content, L.messageChars) })),
      userRequests: limitRequests(c.conversationState.userRequests),
      ...(c.conversationState.inheritedRequests !== undefined
        ? {
            // Requests dropped past the limit go from index 1 on: inherited ones first.
            inheritedRequests: Math.min(
              c.conversationState.inheritedRequests,
              Math.max(
                Math.min(1, c.conversationState.inheritedRequests),
                c.conversationState.inheritedRequests -
                  Math.max(0, c.conversationState.userRequests.length - L.userRequests),
              ),
            ),
          }
        : {}),
    },
    taskState: {
      ...c.taskState,
      progress: Math.min(
        1,
        Math.max(0, Number.isFinite(c.taskState.progress) ? c.taskState.progress : 0),
      ),
      operation: truncate(c.taskState.operation, L.stepChars),
      phase: truncate(c.taskState.phase, 100),
      completedSteps: limitList(c.taskState.completedSteps, L.completedSteps, L.stepChars),
      nextSteps: c.taskState.nextSteps.slice(0, L.nextSteps).map((s) => truncate(s, L.stepChars)),
      blockers: limitList(c.taskState.blockers, L.blockers, L.stepChars),
      items: c.taskState.items
        .slice(0, L.taskItems)
        .map((i) => ({ ...i, content: truncate(i.content, L.stepChars) })),
    },
    fileState: {
      ...c.fileState,
      activeFiles: c.fileState.activeFiles.slice(-L.files),
      modifiedFiles: c.fileState.modifiedFiles.slice(0, L.files),
      stagedFiles: c.fileState.stagedFiles.slice(0, L.files),
      uncommittedDiff: truncateBytes(c.fileState.uncommittedDiff, L.diffBytes),
    },
    toolState: {
      activeSessions: c.toolState.activeSessions.slice(-L.activeSessions),
      pendingOperations: c.toolState.pendingOperations.slice(-L.pendingOperations),
      recentToolCalls: c.toolState.recentToolCalls.slice(-L.recentToolCalls).map((t) => ({
        ...t,
        args: truncate(t.args, L.toolTextChars),
        result: truncate(t.result, L.toolTextChars),
      })),
      ...(c.toolState.checks !== undefined ? { checks: c.toolState.checks.slice(-8) } : {}),
      ...(c.toolState.commands !== undefined
        ? {
            commands: c.toolState.commands
              .slice(-L.commands)
              .map((r) => ({ ...r, command: truncate(r.command, L.commandChars) })),
          }
        : {}),
      ...(c.toolState.lastFailure !== undefined
        ? {
            lastFailure:
              c.toolState.lastFailure === null
                ? null
                : {
                    ...c.toolState.lastFailure,
                    input: truncate(c.toolState.lastFailure.input, L.commandChars),
                    output: truncate(c.toolState.lastFailure.output, L.failureChars),
                  },
          }
        : {}),
    },
    userPreferences: {
      ...(c.userPreferences.customInstructions !== undefined
        ? {
            customInstructions: truncate(
              c.userPreferences.customInstructions,
              L.customInstructionsChars,
            ),
          }
        : {}),
      ...(c.userPreferences.recentPreferences !== undefined
        ? {
            recentPreferences: truncate(
              c.userPreferences.recentPreferences,
              L.recentPreferencesChars,
            ),
          }
        : {}),
    },
  };
}

export type ValidationResult = { valid: boolean; errors: string[] };

/** The specified validation, extended to every limit above. */
export function validateCheckpoint(
  c: CheckpointDraft & { checkpointNumber?: number },
): ValidationResult {
  const errors: string[] = [];
  const check = (ok: boolean, message: string) => {
    if (!ok) errors.push(message);
  };
  check(c.id.length > 0, 'id is empty');
  check(c.sessionId.length > 0, 'sessionId is empty');
  const n = c.checkpointNumber;
  if (n !== undefined)
    check(Number.isInteger(n) && n >= 1, 'checkpointNumber must be a positive integer');
  check(!Number.isNaN(Date.parse(c.createdAt)), 'createdAt is not an ISO timestamp');
  check(
    (CHECKPOINT_TRIGGERS as readonly string[]).includes(c.triggeredBy),
    `unknown trigger ${c.triggeredBy}`,
  );
  check(
    isAgentId(c.source.agent),
    `unknown agent ${JSON.stringify(c.source.agent)} (this shim knows ${AGENT_IDS.join(', ')})`,
  );
  check(
    c.conversationState.summary.length <= L.summaryChars,
    `summary exceeds ${L.summaryChars} chars`,
  );
  check(
    c.conversationState.keyDecisions.length <= L.keyDecisions,
    `too many key decisions (max ${L.keyDecisions})`,
  );
  check(
    c.conversationState.currentContext.length <= L.currentContextChars,
    `currentContext exceeds ${L.currentContextChars} chars`,
  );
  check(
    c.conversationState.recentMessages.every((m) => m.content.length <= L.messageChars),
    `a recent message exceeds ${L.messageChars} chars`,
  );
  check(
    c.taskState.completedSteps.length <= L.completedSteps,
    `too many completed steps (max ${L.completedSteps})`,
  );
  check(c.taskState.nextSteps.length <= L.nextSteps, `too many next steps (max ${L.nextSteps})`);
  check(c.taskState.blockers.length <= L.blockers, `too many blockers (max ${L.blockers})`);
  check(
    c.taskState.progress >= 0 && c.taskState.progress <= 1,
    'progress must be between 0.0 and 1.0',
  );
  check(
    new TextEncoder().encode(c.fileState.uncommittedDiff).length <= L.diffBytes,
    'uncommitted diff exceeds 10KB',
  );
  check(
    c.toolState.recentToolCalls.length <= L.recentToolCalls,
    `more than ${L.recentToolCalls} recent tool calls`,
  );
  check(
    c.toolState.recentToolCalls.every(
      (t) => t.args.length <= L.toolTextChars && t.result.length <= L.toolTextChars,
    ),
    `a tool call's args or result exceed ${L.toolTextChars} chars`,
  );
  check(
    (c.userPreferences.customInstructions ?? '').length <= L.customInstructionsChars,
    'customInstructions exceed 2000 chars',
  );
  return { valid: errors.length === 0, errors };
}
