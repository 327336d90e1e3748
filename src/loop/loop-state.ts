/**
 * What the supervisor keeps between iterations, stored as JSON in the run row (`state`) and read
 * back through a schema: a run written by an older shim, or damaged, resumes with defaults for
 * what it lacks instead of crashing on a missing field.
 * @module
 */
import { z } from 'zod';
import { AGENT_IDS } from '../core/agent-id.ts';

const fingerprintSchema = z.object({
  workspace: z.string().nullable(),
  errorSignature: z.string().nullable(),
  output: z.string().nullable(),
});

export const loopStateSchema = z.object({
  nextMode: z.enum(['fresh', 'continue']).catch('fresh'),
  /** The summary a fresh session gets ahead of the goal. */
  pendingSummary: z.string().nullable().catch(null),
  /** A note for the next continue prompt (a failed test, an interruption). */
  note: z.string().nullable().catch(null),
  fingerprints: z.array(fingerprintSchema).catch([]),
  errorPatterns: z
    .array(z.object({ signature: z.string(), count: z.number(), example: z.string() }))
    .catch([]),
  testStatus: z
    .object({ command: z.string(), passed: z.boolean().nullable(), outputTail: z.string() })
    .nullable()
    .catch(null),
  limitAttempts: z.number().int().min(0).catch(0),
  transientErrors: z.number().int().min(0).catch(0),
  consecutiveCrashes: z.number().int().min(0).catch(0),
  stuckRestarted: z.boolean().catch(false),
  threshold: z
    .object({ compactThreshold: z.number(), windowTokens: z.number(), detail: z.string() })
    .nullable()
    .catch(null),
  /** The agent running the work now; null: the one the run started with. */
  currentAgent: z.enum(AGENT_IDS).nullable().catch(null),
  /** When each agent's last usage limit lifts (epoch ms): a fallback goes only to a free agent. */
  limitedUntil: z.partialRecord(z.enum(AGENT_IDS), z.number()).catch({}),
  /** A session to fork at its last message that fits (`shim rescue`): the next iteration does. */
  rescue: z
    .object({ sessionId: z.string(), forkAt: z.string(), prompt: z.string() })
    .nullable()
    .catch(null),
  /**
   * Prompts Claude Code's CronCreate scheduled and no iteration deleted yet: pending work for the
   * iterations that still have them (a continued session all, a new one the durable ones).
   */
  scheduled: z
    .array(
      z.object({
        id: z.string(),
        type: z.string(),
        description: z.string(),
        durable: z.boolean(),
      }),
    )
    .catch([]),
  /** The agent process of the iteration in flight (pid reuse is told by its start time). */
  agent: z
    .object({ pid: z.number().int(), startTime: z.string().nullable() })
    .nullable()
    .catch(null),
});

export type LoopState = z.infer<typeof loopStateSchema>;

export function initialLoopState(): LoopState {
  return readLoopState({});
}

/** The state as stored (any JSON, or nothing); each field that is missing or wrong is defaulted. */
export function readLoopState(stored: unknown): LoopState {
  const object = stored && typeof stored === 'object' && !Array.isArray(stored) ? stored : {};
  return loopStateSchema.parse(object);
}
