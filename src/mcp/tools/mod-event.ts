/**
 * `shim_mod_event`: the door shim's Claude Code mod reports through. A mod runs inside Claude Code
 * with no file system; it calls this long-lived server instead of starting a process: each
 * response's usage (`step`), each finished tool call it answered for the PostToolUse hook (`tool`),
 * and each compaction before (`compact`) and after (`compacted`) it.
 * Not a tool for the model, and the description says so.
 * @module
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { realpathSync, statSync } from 'node:fs';
import { basename, sep } from 'node:path';
import { z } from 'zod';
import { countToolCall } from '../../app/session/count-tool-call.ts';
import { observeStep } from '../../app/session/observe-step.ts';
import { prepareCompaction, recordCompactionSummary } from '../../app/checkpoint/mod-compaction.ts';
import { loadSessionState } from '../../app/session/read-session.ts';
import type { AgentAdapter, ModHost } from '../../agents/agent.ts';
import { findProjectRoot } from '../../capture/project.ts';
import { AppError } from '../../core/errors.ts';
import { loadConfig } from '../../store/config/config.ts';
import { loadHookMemory } from '../../store/cache/hook-memory.ts';
import { answer, guard, now, type McpDeps } from '../context.ts';

const name = 'shim_mod_event';

/** Claude Code may report a response before its transcript file exists: wait this long for it. */
const TRANSCRIPT_WAIT_MS = 2_000;

const count = z.number().int().nonnegative().optional();
const inputSchema = {
  event: z.enum(['step', 'tool', 'compact', 'compacted']),
  transcriptPath: z.string().min(1).max(4096),
  turnId: z.string().max(200).optional(),
  step: z.number().int().nonnegative().optional(),
  usage: z
    .object({
      input_tokens: count,
      output_tokens: count,
      cache_read_input_tokens: count,
      cache_creation_input_tokens: count,
      model: z.string().max(200).optional(),
    })
    .optional(),
  trigger: z.enum(['auto', 'manual']).optional(),
  /** The mod delivers the level's note to the model itself (`$.session.append`). */
  notes: z.boolean().optional(),
  summary: z.string().max(200_000).optional(),
};

const config = {
  title: "shim's Claude Code mod",
  description:
    "Internal: shim's Claude Code mod reports each response's usage and each compaction here. " +
    'Not for the model: do not call it; use shim_get_crash_risk or shim_checkpoint instead.',
  inputSchema,
  annotations: {
    title: "shim's Claude Code mod",
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
};

/** The mod reads the text blocks only (`$.mcp.call`): the facts go there as JSON. */
const reply = (facts: Record<string, unknown>) => answer(JSON.stringify(facts), facts);

/** A mod's session: its log and the agent whose mod reports. */
type ModSession = { path: string; agent: AgentAdapter; mod: ModHost };

/** `path` without its links, once it exists; null while it is not there yet. */
async function waitForFile(path: string): Promise<string | null> {
  const deadline = Date.now() + TRANSCRIPT_WAIT_MS;
  for (;;) {
    try {
      return realpathSync(path);
    } catch {
      if (Date.now() >= deadline) return null;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/**
 * Only a session log of an agent with a mod, where that agent keeps its logs: a caller cannot
 * point shim at any other file. Null while the file is not there yet (a first response can come
 * before it).
 */
async function checkTranscript(path: string, deps: McpDeps): Promise<ModSession | null> {
  const real = await waitForFile(path);
  if (real === null) return null;
  const roots: string[] = [];
  for (const id of deps.agents.ids) {
    const agent = await deps.agents.adapter(id);
    if (!agent.mod) continue;
    let root = agent.sessions.root(deps.env);
    try {
      root = realpathSync(root);
    } catch {
      // not there: no log can be under it
    }
    roots.push(root);
    if (real.startsWith(root + sep) && statSync(real).isFile())
      return { path: real, agent, mod: agent.mod };
  }
  throw new AppError(
    'UNSAFE_PATH',
    `${path} is not a session log under ${roots.join(' or ')}`,
    'pass $.session.info().transcriptPath',
  );
}

export function registerModEventTool(server: McpServer, deps: McpDeps): void {
  // Usage comes from the mod; everything else from the transcript, read from where the cursor
  // cache left it (a few lines per response in this warm process).
  server.registerTool(name, config, (args) =>
    guard(deps, name, args, async (input) => {
      const at = now(deps);
      const session = await checkTranscript(input.transcriptPath, deps);
      if (session === null) return reply({ pending: 'the transcript is not written yet' });
      const { path, agent } = session;
      const state = await loadSessionState(path, deps.home, agent);
      const shim = await loadConfig(deps.home, {
        lenient: true,
        projectRoot: state.cwd ? findProjectRoot(state.cwd) : null,
      });
      // shim switched off in its config (for this project): the mod goes quiet, as the hooks do.
      if (!shim.enabled) return reply({ off: 'shim is disabled in its config' });
      const sessionId = state.sessionId ?? basename(path, '.jsonl');
      if (input.event === 'tool') {
        const counted = await countToolCall({
          home: deps.home,
          env: deps.env,
          now: at,
          config: shim,
          sessionId,
          session: { transcriptPath: path, cwd: state.cwd, agent: agent.id },
          memory: loadHookMemory(deps.home, sessionId),
        });
        return reply({ ...counted });
      }
      if (input.event === 'step') {
        const seen = await observeStep({
          modNotes: input.notes === true,
          agent,
          home: deps.home,
          env: deps.env,
          now: at,
          config: shim,
          transcriptPath: path,
          cwd: state.cwd,
          state,
          observation: {
            turnId: input.turnId ?? '',
            step: input.step ?? 0,
            usage: input.usage ?? {},
            at,
          },
        });
        // Which per-call hook events the mod may answer itself (no process): those no other
        // hook listens to, since answering without next() skips every hook beneath it.
        const others = session.mod.otherToolHooks(state.cwd, deps.env);
        const answers = Object.entries(others)
          .filter(([, other]) => !other)
          .map(([event]) => event);
        return reply({ ...seen, answers });
      }
      if (input.event === 'compact') {
        const prepared = await prepareCompaction({
          agent,
          home: deps.home,
          env: deps.env,
          now: at,
          transcriptPath: path,
          cwd: state.cwd,
          state,
          trigger: input.trigger ?? 'auto',
        });
        return reply({
          instructions: prepared.instructions,
          checkpointNumber: prepared.checkpoint?.checkpointNumber ?? null,
        });
      }
      const recorded = input.summary
        ? await recordCompactionSummary({
            agent,
            home: deps.home,
            now: at,
            sessionId,
            transcriptPath: path,
            trigger: input.trigger ?? 'auto',
            summary: input.summary,
          })
        : false;
      return reply({ recorded });
    }),
  );
}
