/** The shape of SHIM_HOME/config.json (strict: a typo is an error, not a silent no-op). */
import { z } from 'zod';

const zoneSchema = z.strictObject({
  compactUsage: z.number().min(0).max(2).optional(),
  turnsToCompact: z.number().int().min(0).optional(),
  forecastMinUsage: z.number().min(0).max(2).optional(),
  messageCount: z.number().int().min(0).optional(),
  sessionDurationMs: z.number().int().min(0).optional(),
  toolCallsSinceCheckpoint: z.number().int().min(0).optional(),
  toolFailureRate: z.number().min(0).max(1).optional(),
  consecutiveToolFailures: z.number().int().min(0).optional(),
});

export const configSchema = z.strictObject({
  levels: z
    .strictObject({
      L1: z.number().min(0).max(200),
      L2: z.number().min(0).max(200),
      L3: z.number().min(0).max(200),
    })
    .refine((l) => l.L1 <= l.L2 && l.L2 <= l.L3, 'levels must rise: L1 ≤ L2 ≤ L3')
    .optional(),
  risk: z
    .strictObject({ warning: zoneSchema.optional(), danger: zoneSchema.optional() })
    .optional(),
  /** Learn the compaction threshold from ~/.claude/projects (default true). */
  learnFromHistory: z.boolean().optional(),
  /** Block proactive auto-compaction after saving a handoff (opt-in, default false). */
  blockAutoCompact: z.boolean().optional(),
  /** shim off entirely (false), e.g. in one project's `.shim.json`. */
  enabled: z.boolean().optional(),
  /** How often the hooks checkpoint in the background, and how checkpoints are stored. */
  checkpoints: z
    .strictObject({
      /** "changes" (default): where the work changes, only after a file change; "count": every N. */
      timing: z.enum(['changes', 'count']).optional(),
      everyToolCalls: z.number().int().min(1).max(10_000).optional(),
      /** "changes": after this many calls without a work change (when a file changed). */
      fallbackCalls: z.number().int().min(1).max(10_000).optional(),
      everyMinutes: z
        .number()
        .min(0.5)
        .max(24 * 60)
        .optional(),
      /** The seed's continuous_checkpoint: store only what changed since the previous one. */
      continuous: z.boolean().optional(),
      /** A whole checkpoint after at most this many changes in a row. */
      fullEvery: z.number().int().min(1).max(100).optional(),
    })
    .optional(),
  /** The seed's restore_context_hours: how far back earlier checkpoints are read (default 24). */
  restoreContextHours: z
    .number()
    .min(0)
    .max(24 * 3650)
    .optional(),
  /** The seed's restore_max_contexts: at most this many of them (default 50). */
  restoreMaxContexts: z.number().int().min(1).max(10_000).optional(),
  /** Inject the interrupted session's state into a new session of the project (default true). */
  restoreAtStartup: z.boolean().optional(),
  /** Relay (default false): at L3 offer a fresh context; after /clear inject the full state. */
  relay: z.boolean().optional(),
  /** Checkpoints older than this are not resumed (default 7). */
  resumeWindowDays: z.number().min(0).max(3650).optional(),
  /** A warm process does PostToolUse's full look (default true); false: each hook looks itself. */
  warmLook: z.boolean().optional(),
  /** Automatic clean-up of old checkpoints (at the end of a session, at most daily). */
  retention: z
    .strictObject({
      auto: z.boolean().optional(),
      days: z.number().min(1).max(3650).optional(),
      maxStoreMB: z.number().min(1).max(1_000_000).optional(),
    })
    .optional(),
  /** Tracker sync: comments, a label and a state move on the session's issue. */
  sync: z
    .strictObject({
      enabled: z.boolean().optional(),
      label: z.string().min(1).max(50).nullable().optional(),
      /** A workflow state to move the issue to (Linear), e.g. "In Progress"; never a closing one. */
      state: z.string().min(1).max(50).nullable().optional(),
      /** Checkpoints at L2, L3 and compactions as claude-mem observations when it is installed. */
      claudeMem: z.boolean().optional(),
      /** Also take the issue from a request or a loop goal that names one (default false). */
      fromRequests: z.boolean().optional(),
      /** An update not sent within this many hours is dropped as stale, not posted (default 24). */
      staleAfterHours: z
        .number()
        .min(1)
        .max(24 * 365)
        .optional(),
    })
    .optional(),
  /** The team store (docs/team.md): a PostgreSQL URL without a password; resume; retention. */
  team: z
    .strictObject({
      url: z.string().min(1).max(2000).nullable().optional(),
      /** Restore another machine's newest unfinished work at startup (default true once connected). */
      resume: z.boolean().optional(),
      /** Days the server keeps rows (default 90); the worker deletes older ones. */
      retentionDays: z.number().min(1).max(3650).optional(),
    })
    .optional(),
  /**
   * The project's own files (docs/project-files.md): `<dir>/checkpoint-state.json` and handoffs
   * under `<dir>/handoffs/` in the project, for teams that keep state in the repository. Off by
   * default; `track: true` leaves them to git (otherwise listed in .git/info/exclude).
   */
  projectFiles: z
    .strictObject({
      enabled: z.boolean().optional(),
      // Relative, inside the project: no leading slash or drive, no ".." part.
      dir: z
        .string()
        .regex(/^(?![/\\]|\w:)(?!(.*[/\\])?\.\.([/\\]|$)).+$/, 'a directory inside the project')
        .optional(),
      track: z.boolean().optional(),
    })
    .optional(),
  /**
   * The MCP server. `forget`: the agent may delete checkpoints with shim_forget (default false);
   * read from SHIM_HOME/config.json only, never from a project's file.
   */
  mcp: z.strictObject({ forget: z.boolean().optional() }).optional(),
  /** shim loop runs: days kept hot after they end, and days kept at all. */
  loopRetention: z
    .strictObject({
      hotDays: z.number().min(0).max(3650).optional(),
      retentionDays: z.number().min(0).max(3650).optional(),
    })
    .optional(),
});
