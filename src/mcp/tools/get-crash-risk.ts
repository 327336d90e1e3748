/** `shim_get_crash_risk` (docs/specification.md, "Resume"): how close the calling session is to losing its context. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { withStore } from '../../app/open-store.ts';
import { getSessionStatus, type SessionStatus } from '../../app/session/status.ts';
import { findProjectRoot } from '../../capture/project.ts';
import { checkpointPolicyOf, type CheckpointPolicy } from '../../core/policy/checkpoint-policy.ts';
import { formatTurnsLeft } from '../../core/context/turns-left-text.ts';
import { loadHookMemory } from '../../store/cache/hook-memory.ts';
import { loadConfig } from '../../store/config/config.ts';
import {
  answer,
  callerFacts,
  callerSchema,
  guard,
  identifyCaller,
  now,
  short,
  type McpDeps,
} from '../context.ts';

const name = 'shim_get_crash_risk';

const inputSchema = {
  includeSignals: z
    .boolean()
    .optional()
    .describe(
      'Also return the raw signals (token, message, time and failure figures). Default false.',
    ),
};

const outputSchema = {
  riskLevel: z.enum(['safe', 'warning', 'danger']),
  recommendation: z.string(),
  signals: z.record(z.string(), z.unknown()).optional(),
  nextCheckpointIn: z
    .object({ toolCalls: z.number(), minutes: z.number(), onlyAfterFileChange: z.boolean() })
    .optional(),
  session: callerSchema,
};

const config = {
  title: 'Get crash risk',
  description:
    'How close this session is to losing its working context (auto-compaction or ' +
    '"prompt is too long"). Returns riskLevel safe | warning | danger, a recommendation saying ' +
    "what to do now, and when shim's hooks take the next automatic checkpoint. Call it before a " +
    'long or token-heavy step (reading big files, large refactors), or when the user asks how ' +
    'much context is left. Cheap and read-only. The session is identified as the most recently ' +
    "written transcript of the server's working directory; the answer names it.",
  inputSchema,
  outputSchema,
  annotations: {
    title: 'Get crash risk',
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
};

function recommend(status: SessionStatus): string {
  const a = status.assessment;
  const turns = a.forecast.turnsToCompact;
  const where =
    `context is at ${a.percent}% of the auto-compact threshold (${a.level})` +
    (turns !== null
      ? `, about ${formatTurnsLeft(a.forecast)!.replace(/^~/, '')} responses before compaction`
      : '');
  const why = a.riskFactors.length > 0 ? ` Factors: ${a.riskFactors.join('; ')}.` : '';
  switch (a.risk) {
    case 'danger':
      return (
        `Danger: ${where}.${why} Call shim_checkpoint now with a reason describing the current step, ` +
        'then finish that step with short outputs (no whole-file reads, no long logs). If work remains, ' +
        'tell the user a fresh session will be offered this checkpoint.'
      );
    case 'warning':
      return (
        `Warning: ${where}.${why} Take a checkpoint (shim_checkpoint) at the next natural break, ` +
        'and prefer targeted reads and greps over whole files.'
      );
    default:
      return `Safe: ${where}.${why} Nothing to do; carry on.`;
  }
}

/** The session's newest stored checkpoint: when, and at how many tool calls. */
async function getLastCheckpoint(
  deps: McpDeps,
  sessionId: string,
): Promise<{ at: number; toolCalls: number } | null> {
  const stored = await withStore(deps.home, (s) => s.checkpoints.getMostRecent(sessionId));
  if (stored) return { at: Date.parse(stored.createdAt), toolCalls: stored.signals.toolCallCount };
  // None stored yet: one the hooks started in the background may still be on its way.
  const memory = loadHookMemory(deps.home, sessionId);
  return memory.lastCheckpointAt !== null
    ? { at: memory.lastCheckpointAt, toolCalls: memory.toolCallsAtCheckpoint }
    : null;
}

type NextCheckpoint = { toolCalls: number; minutes: number; onlyAfterFileChange: boolean };

/**
 * When the hooks' policy (the user's `checkpoints` settings) takes the next checkpoint, from the
 * last one stored. Under `changes` the count and the minutes run only once a file changed since
 * that checkpoint, and a work change (a task done, tests passing, a commit) comes sooner.
 */
function getNextCheckpointIn(
  policy: CheckpointPolicy,
  last: { at: number; toolCalls: number } | null,
  toolCalls: number,
  at: number,
): NextCheckpoint | undefined {
  if (!last) return undefined;
  const calls = Math.max(0, toolCalls - last.toolCalls);
  return {
    toolCalls: Math.max(0, policy.toolCallInterval - calls),
    minutes: Math.max(0, Math.ceil((policy.timeIntervalMs - (at - last.at)) / 60_000)),
    onlyAfterFileChange: policy.timing === 'changes',
  };
}

function describeNext(next: NextCheckpoint | undefined): string {
  if (!next)
    return 'No checkpoint of this session yet: call shim_checkpoint to take the first one.';
  const within = `within ${next.toolCalls} tool calls or ${next.minutes} minutes`;
  return next.onlyAfterFileChange
    ? `Next automatic checkpoint (with shim's hooks installed): once a file has changed since the last one, when the work changes (a task done, tests passing, a commit) or ${within}.`
    : `Next automatic checkpoint (with shim's hooks installed): ${within}.`;
}

export function registerGetCrashRiskTool(server: McpServer, deps: McpDeps): void {
  server.registerTool(name, config, (args) =>
    guard(deps, name, args, async ({ includeSignals }) => {
      const caller = await identifyCaller(deps);
      const at = now(deps);
      const last = await getLastCheckpoint(deps, caller.sessionId);
      const status = await getSessionStatus({
        transcript: caller.transcriptPath,
        agent: caller.log.agent.id,
        agents: deps.agents,
        cwd: deps.cwd,
        env: deps.env,
        home: deps.home,
        now: at,
        toolCallsAtCheckpoint: last?.toolCalls ?? null,
      });
      const recommendation = recommend(status);
      const memory = loadHookMemory(deps.home, caller.sessionId);
      const settings = await loadConfig(deps.home, {
        lenient: true,
        projectRoot: findProjectRoot(deps.cwd),
      });
      const next = getNextCheckpointIn(
        checkpointPolicyOf(settings.checkpoints),
        last,
        Math.max(status.activity.toolCalls, memory.hookToolCalls),
        at,
      );
      const signals = status.assessment.signals;
      const text = [
        `riskLevel: ${status.assessment.risk} (session ${short(caller.sessionId)})`,
        recommendation,
        describeNext(next),
        `Calling session: ${caller.sessionId}, ${caller.basis}.`,
        ...(includeSignals ? [`signals: ${JSON.stringify(signals)}`] : []),
      ].join('\n');
      return answer(text, {
        riskLevel: status.assessment.risk,
        recommendation,
        ...(includeSignals ? { signals } : {}),
        ...(next ? { nextCheckpointIn: next } : {}),
        session: callerFacts(caller),
      });
    }),
  );
}
